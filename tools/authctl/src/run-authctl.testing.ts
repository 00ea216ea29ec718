import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { compileCacheEnvironment } from "@auth/suite";

export const run = promisify(execFile);
export const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));
/** The command npm links (what `npx authctl` runs). */
export const bin = fileURLToPath(new URL("../bin/authctl.js", import.meta.url));

export interface AuthctlResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Runs authctl as a process of its own with only this environment; resolves with what it printed and its exit code. */
export async function runAuthctl(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<AuthctlResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH, ...compileCacheEnvironment, ...env },
    });
    return { stdout, stderr, exitCode: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, exitCode: failed.code };
  }
}
