// Prints what failed in the last `npm test` (its turbo tasks, then each failed test), then its
// slowest test files: what .ci/run shows at its end, where CI's log, which keeps only its tail,
// still has it.
import { failedTests, readFileTimes, slowestFiles } from "./file-times.js";
import { failedTasks, readTurboRuns } from "./turbo-runs.js";

const count = Number(process.argv[2] ?? 10);
const tasks = failedTasks(readTurboRuns());
const times = readFileTimes();
const failed = failedTests(times);
if (tasks.length === 0 && failed.length === 0) console.log("No task and no test failed.");
for (const [title, lines] of [
  ["Failed tasks:", tasks],
  ["Failed tests:", failed],
] as const) {
  if (lines.length > 0) console.log([title, ...lines.map((line) => `  ${line}`)].join("\n"));
}
if (times.length === 0) {
  console.log("No test file timings recorded (.test-results/ is empty).");
} else {
  console.log(`The ${Math.min(count, times.length)} slowest of ${times.length} test files:`);
  for (const line of slowestFiles(times, count)) console.log(`  ${line}`);
}
