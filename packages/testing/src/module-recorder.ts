import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Records the modules node processes load: a process started with `--import <hook>` writes, as it
 * exits, the URL of every module it loaded to a file named by its environment variable
 * `nameVariable`. For tests that a start loads no library it does not need.
 */
export interface ModuleRecorder {
  /** The file to give node's `--import`. */
  hook: string;
  /** The packages (from node_modules) of the modules the process of that name loaded. */
  packagesLoadedBy(name: string): Set<string>;
  remove(): void;
}

export function moduleRecorder(nameVariable: string): ModuleRecorder {
  const dir = mkdtempSync(join(tmpdir(), "module-recorder-"));
  const hook = join(dir, "hook.mjs");
  writeFileSync(
    hook,
    `import { registerHooks } from "node:module";
import { writeFileSync } from "node:fs";
const urls = [];
registerHooks({ load(url, context, next) { urls.push(url); return next(url, context); } });
process.on("exit", () => writeFileSync(${JSON.stringify(dir)} + "/" + process.env[${JSON.stringify(nameVariable)}] + ".txt", urls.join("\\n")));
`,
  );
  return {
    hook,
    packagesLoadedBy: (name) =>
      new Set(
        readFileSync(join(dir, `${name}.txt`), "utf8")
          .split("\n")
          .map((url) => url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1])
          .filter((name): name is string => name !== undefined),
      ),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
