import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Temporary directories for a test file's fixtures (edited copies of data files), removed after its tests. Call it at
 * the top level of the file: the removal is that file's afterAll (in a folder bundle, its member's describe block).
 */
export function temporaryDirs(): { make(prefix: string): string } {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    make(prefix) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
  };
}
