import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { testBudgets } from "@auth/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataDirInUse, lockDataDir, lockFileName } from "./data-lock.js";

const running: ChildProcess[] = [];

/** A process that lives until the test ends. */
function livingProcess(): number {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 60_000)"], { stdio: "ignore" });
  running.push(child);
  return child.pid as number;
}

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid as number;
}

const inUseBy = (dir: string) => {
  try {
    lockDataDir(dir);
  } catch (error) {
    if (error instanceof DataDirInUse) return error.pids;
    throw error;
  }
  return [];
};

describe("the lock of a suite's data folder", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "data-lock-"));
    file = join(dir, lockFileName);
  });
  afterEach(() => {
    for (const child of running.splice(0)) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("is taken by the first suite, and refuses a second one, naming the process that holds it", () => {
    lockDataDir(dir);
    expect(readFileSync(file, "utf8")).toBe(`${process.pid}\n`);
    expect(inUseBy(dir)).toEqual([process.pid]);
  });

  it("holds every process of the suite: the folder stays in use while one of them lives", async () => {
    const lock = lockDataDir(dir);
    const child = livingProcess();
    lock.hold(child);
    expect(readFileSync(file, "utf8")).toBe(`${process.pid}\n${child}\n`);
    // As left by a suite whose launcher was killed while a process of it still stops.
    writeFileSync(file, `${await deadPid()}\n${child}\n`);
    expect(inUseBy(dir)).toEqual([child]);
  });

  it("is taken over when every process it names is gone (a suite killed outright)", async () => {
    writeFileSync(file, `${await deadPid()}\n${await deadPid()}\n`);
    lockDataDir(dir);
    expect(readFileSync(file, "utf8")).toBe(`${process.pid}\n`);
  });

  it("is removed on release, once no process it holds lives, and left while one does", () => {
    const lock = lockDataDir(dir);
    const child = livingProcess();
    lock.hold(child);
    lock.release();
    expect(existsSync(file)).toBe(true);
    running[0]?.kill("SIGKILL");
    return new Promise<void>((resolve) => {
      running[0]?.once("exit", () => {
        lock.release();
        expect(existsSync(file)).toBe(false);
        resolve();
      });
    });
  });

  it(
    "goes to one suite alone when several start at once on a stale lock",
    async () => {
      writeFileSync(file, `${await deadPid()}\n`);
      const lockModule = new URL("../dist/data-lock.js", import.meta.url).href;
      const starter = `
        import { lockDataDir } from ${JSON.stringify(lockModule)};
        try { lockDataDir(${JSON.stringify(dir)}); console.log("taken"); setInterval(() => {}, 60_000); }
        catch (error) { console.log(error.constructor.name); }`;
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, () => {
          const child = spawn(process.execPath, ["--input-type=module", "-e", starter], {
            cwd: fileURLToPath(new URL("..", import.meta.url)),
            stdio: ["ignore", "pipe", "inherit"],
          });
          running.push(child);
          return new Promise<string>((resolve) =>
            child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())),
          );
        }),
      );
      expect(outcomes.filter((outcome) => outcome === "taken")).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === "DataDirInUse")).toHaveLength(5);
    },
    testBudgets.testMs,
  );
});
