import type { Reporter, TestModule } from "vitest/node";
import { relativeToRoot, writeFileTimes } from "./file-times.js";

/** Records how long each test file took, for the slowest-files report at the end of CI. */
export class FileTimesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    writeFileTimes(
      process.cwd(),
      testModules.map((module) => {
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
      }),
    );
  }
}
