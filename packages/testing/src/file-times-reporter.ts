import type { Reporter, TestModule } from "vitest/node";
import { type FileTime, relativeToRoot, writeFileTimes } from "./file-times.js";

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
  };
};

/**
 * Records how long each test file took, for the slowest-files report at the end of CI: one record
 * per vitest project, so that a run of one of a workspace's projects (`vitest run --project <name>`)
 * keeps the others'.
 */
export class FileTimesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const projects = new Set(testModules.map((module) => module.project.name));
    for (const project of projects) {
      const modules = testModules.filter((module) => module.project.name === project);
      writeFileTimes(process.cwd(), modules.map(timeOf), project);
    }
  }
}
