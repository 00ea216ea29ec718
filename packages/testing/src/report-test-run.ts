// Prints what failed in the last `npm test`, then its slowest test files: what .ci/run shows at its
// end, where CI's log, which keeps only its tail, still has it.
import { failedTests, readFileTimes, slowestFiles } from "./file-times.js";

const count = Number(process.argv[2] ?? 10);
const times = readFileTimes();
if (times.length === 0) {
  console.log("No test file timings recorded (.test-results/ is empty).");
} else {
  const failed = failedTests(times);
  console.log(
    failed.length === 0 ? "No test failed." : ["Failed:", ...failed.map((line) => `  ${line}`)].join("\n"),
  );
  console.log(`The ${Math.min(count, times.length)} slowest of ${times.length} test files:`);
  for (const line of slowestFiles(times, count)) console.log(`  ${line}`);
}
