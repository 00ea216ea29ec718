// Prints the slowest test files of the last `npm test` (what .ci/run shows at its end).
import { readFileTimes, slowestFiles } from "./file-times.js";

const count = Number(process.argv[2] ?? 10);
const times = readFileTimes();
if (times.length === 0) {
  console.log("No test file timings recorded (.test-results/ is empty).");
} else {
  console.log(`The ${Math.min(count, times.length)} slowest of ${times.length} test files:`);
  for (const line of slowestFiles(times, count)) console.log(`  ${line}`);
}
