// Every test file of this folder as one jest file in a full run (test/support/bundles.js).
import { bundle } from "../support/bundle";

bundle(__dirname);
