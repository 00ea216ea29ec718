import type { SerializedError } from "vitest";
import type { Reporter, TestModule } from "vitest/node";
import { type FileTime, relativeToRoot, writeFileTimes } from "./file-times.js";

const firstLine = (error: SerializedError): string =>
  `${error.name ? `${error.name}: ` : ""}${error.message ?? ""}`.split("\n")[0] ?? "";

const failuresOf = (module: TestModule): string[] => [
  ...module.errors().map((error) => `(the file) ${firstLine(error)}`),
  ...Array.from(module.children.allTests("failed"), (test) => {
    const [error] = test.result().errors ?? [];
    return `${test.fullName}${error ? `: ${firstLine(error)}` : ""}`;
  }),
];

const timeOf = (module: TestModule): FileTime => {
  const diagnostic = module.diagnostic();
  return {
    file: relativeToRoot(module.moduleId),
    ms: Math.round(
      diagnostic.prepareDuration +
        diagnostic.environmentSetupDuration +
        diagnostic.setupDuration +
        diagnostic.collectDuration +
        diagnostic.duration,
    ),
    state: module.state(),
    failures: failuresOf(module),
  };
};

/**
 * Records how long each test file took and what failed in it, for the report at the end of CI (whose
 * log keeps only its tail): one record per vitest project, so that a run of one of a workspace's
 * projects (`vitest run --project <name>`) keeps the others'. An error outside every test file, which
 * fails the run while every test passes, is recorded as a file of its own.
 */
export class FileTimesReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    const projects = new Set(testModules.map((module) => module.project.name));
    for (const project of projects) {
      const modules = testModules.filter((module) => module.project.name === project);
      writeFileTimes(process.cwd(), modules.map(timeOf), project);
    }
    const outside: FileTime = {
      file: `${relativeToRoot(process.cwd()) || "."} (outside the test files)`,
      ms: 0,
      state: "failed",
      failures: unhandledErrors.map(firstLine),
    };
    writeFileTimes(process.cwd(), unhandledErrors.length > 0 ? [outside] : [], "unhandled");
  }
}
