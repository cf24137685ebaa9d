// The test files of the folders without a bundle of their own, as one jest file in a full run (test/support/bundles.js).
import { bundle } from "./support/bundle";

bundle(__dirname);
