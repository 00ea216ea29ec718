import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const turboJson = JSON.parse(readFileSync(`${root}turbo.json`, "utf8")) as {
  globalEnv?: string[];
  tasks: Record<string, { env?: string[] }>;
};
const testSettings = turboJson.tasks.test?.env ?? [];

/** Every task's hash in a dry run of the tests, with the tests' settings given these values. */
function taskHashes(value: string): Map<string, string> {
  const settings = Object.fromEntries(testSettings.map((name) => [name, value]));
  const plan = JSON.parse(
    execFileSync(`${root}node_modules/.bin/turbo`, ["run", "test", "--dry=json"], {
      cwd: root,
      env: { ...process.env, ...settings },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    }),
  ) as { tasks: { taskId: string; hash: string }[] };
  return new Map(plan.tasks.map((task) => [task.taskId, task.hash]));
}

/** docs/performance.md, "Builds that CI made three times". */
describe("turbo's cache", () => {
  it("passes the tests' settings (TEST_*) to the tests", () => {
    expect(testSettings).toEqual(
      expect.arrayContaining(["TEST_DATABASE_URL", "TEST_REDIS_URL", "TEST_SCREENSHOTS"]),
    );
    expect(turboJson.globalEnv ?? []).toEqual([]);
  });

  it("keeps a build's cache key whatever the tests' settings, so a build is made once per change", () => {
    const one = taskHashes("one");
    const other = taskHashes("other");
    const builds = [...one.keys()].filter((task) => task.endsWith("#build"));
    expect(builds.length).toBeGreaterThan(10);
    for (const build of builds) expect(other.get(build), build).toBe(one.get(build));
    const tests = [...one.keys()].filter((task) => task.endsWith("#test"));
    expect(tests.filter((test) => other.get(test) === one.get(test))).toEqual([]);
  });
});
