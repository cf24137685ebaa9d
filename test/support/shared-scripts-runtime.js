/**
 * jest's runtime, with each module's compiled code shared by the test files a worker runs (jest.config.js `runtime`).
 *
 * jest compiles every module anew for every test file (`compileFunction` in the file's own context), so each of the
 * ~240 file runs of CI parsed and lazily compiled the same ~1,400 modules (the service, GraphQL, Prisma, PGlite) again.
 * Here a module's code is a `vm.Script` kept per worker and run in each file's context: V8 keeps the script's compiled
 * functions, so a later file reuses them. Only code is shared. Every file still gets its own module registry, and each
 * module's body still runs once per file in that file's context: no module state crosses files.
 */
"use strict";
const vm = require("node:vm");
const Runtime = require("jest-runtime").default;

/** filename -> { source, script }: the transformed source a script was compiled from, and the script. */
const scripts = new Map();
/** Scripts compiled by this worker (test/unit/test-infrastructure.test.ts reads it). */
let compiledCount = 0;
/** The runtime of the file this worker runs now (a worker runs one file at a time): where `import()` resolves. */
let current;

class SharedScriptsRuntime extends Runtime {
  constructor(config, environment, ...rest) {
    super(config, environment, ...rest);
    const executor = this.executor;
    const parameters = executor.injectedModuleParameters.join(", ");
    current = { executor, environment };
    environment.global[Symbol.for("edmarket.sharedScripts")] = { compiled: () => compiledCount };
    executor.compile = (source, filename) => {
      const context = environment.getVmContext();
      if (context == null) return null;
      let entry = scripts.get(filename);
      if (!entry || entry.source !== source) {
        // The wrapper shares the first line with the module's code, so line numbers (and source maps) stay as they are.
        const script = new vm.Script(`(function (${parameters}) {${source}\n})`, {
          filename,
          importModuleDynamically: (specifier, _script, attributes) =>
            current.executor.dynamicImport(specifier, filename, current.environment.getVmContext(), attributes),
        });
        compiledCount += 1;
        entry = { source, script };
        scripts.set(filename, entry);
      }
      return entry.script.runInContext(context);
    };
  }
}

module.exports = SharedScriptsRuntime;
