import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventJson, newEvent, type RelayedEvent, systemOrigin } from "@auth/events";
import { natsEventSink } from "@auth/events/nats";
import { type RunningNats, startNatsServer } from "@auth/events/testing";
import { Outcome } from "@auth/proto/events";
import { createLogger } from "@auth/runtime";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bin } from "./run-authctl.testing.js";

/** An event line of the given type, as a service's relay writes it. */
function eventLine(type: "auth.password.changed" | "auth.session.revoked", userId: string): string {
  return eventJson(
    newEvent(type === "auth.password.changed" ? "identity" : "session", {
      type,
      companyId: "company-1",
      userId,
      outcome: Outcome.SUCCEEDED,
      origin: systemOrigin,
      ...(type === "auth.session.revoked"
        ? { detail: { sessionRevoked: { reason: "logout", allOfUser: false } } }
        : {}),
    }),
  );
}

/** authctl events tail, running: what it printed so far, and how to stop it as Ctrl-C does. */
function tail(args: string[], env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, [bin, "events", "tail", ...args], {
    env: { PATH: process.env.PATH, ...env },
  });
  const out = { stdout: "", stderr: "" };
  child.stdout?.on("data", (chunk: Buffer) => {
    out.stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    out.stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    lines: () => out.stdout.split("\n").filter(Boolean),
    stderr: () => out.stderr,
    following: () => out.stderr.includes("following"),
    async interrupt() {
      child.kill("SIGINT");
      return exited;
    },
    exited,
  };
}

let running: ReturnType<typeof tail> | undefined;
afterEach(async () => {
  await running?.interrupt();
  running = undefined;
});

describe("authctl events tail (the events file)", () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "events-tail-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints each line appended once it follows, and exits cleanly on Ctrl-C", async () => {
    file = join(dir, "new-lines.jsonl");
    const before = eventLine("auth.password.changed", "user-0");
    writeFileSync(file, `${before}\n`);
    running = tail(["--file", file]);
    await expect.poll(running.following, { timeout: 30_000 }).toBe(true);

    const appended = [
      eventLine("auth.password.changed", "user-1"),
      eventLine("auth.session.revoked", "user-2"),
    ];
    appendFileSync(file, appended.map((line) => `${line}\n`).join(""));
    await expect.poll(running.lines, { timeout: 30_000 }).toEqual(appended);

    const { interrupt } = running;
    running = undefined;
    expect(await interrupt()).toBe(0);
  });

  it("prints the lines already there first with --from-start, and only the types --type names", async () => {
    file = join(dir, "from-start.jsonl");
    const changed = eventLine("auth.password.changed", "user-3");
    writeFileSync(file, `${changed}\n${eventLine("auth.session.revoked", "user-4")}\n`);
    running = tail(["--file", file, "--from-start", "--type", "auth.password.*"]);
    await expect.poll(running.following, { timeout: 30_000 }).toBe(true);
    const later = eventLine("auth.password.changed", "user-5");
    appendFileSync(file, `${eventLine("auth.session.revoked", "user-6")}\n${later}\n`);
    await expect.poll(running.lines, { timeout: 30_000 }).toEqual([changed, later]);
  });

  it("takes the file from EVENTS_FILE", async () => {
    file = join(dir, "from-env.jsonl");
    const line = eventLine("auth.password.changed", "user-7");
    writeFileSync(file, `${line}\n`);
    running = tail(["--from-start"], { EVENTS_FILE: file });
    await expect.poll(running.lines, { timeout: 30_000 }).toEqual([line]);
  });

  it("says so when there is no events file", async () => {
    const missing = tail(["--file", join(dir, "missing.jsonl")]);
    expect(await missing.exited).toBe(1);
    expect(missing.stderr()).toContain("no events file at");
  });
});

describe("authctl events tail --nats (the AUTH_EVENTS stream)", () => {
  let nats: RunningNats;
  beforeAll(async () => {
    nats = await startNatsServer();
  }, 120_000);
  afterAll(() => nats?.stop());

  const relayed = (json: string): RelayedEvent => {
    const { id, source, type, time } = JSON.parse(json) as Record<string, string>;
    return { id: id ?? "", source: source ?? "", type: type ?? "", time: new Date(time ?? 0), json };
  };

  /** Publishes as a service's relay does, once the sink has reached NATS. */
  async function publish(lines: string[]): Promise<void> {
    const sink = natsEventSink(nats.url, createLogger("test", "silent"));
    try {
      await expect
        .poll(
          () =>
            sink.publish(lines.map(relayed)).then(
              () => true,
              () => false,
            ),
          { timeout: 30_000 },
        )
        .toBe(true);
    } finally {
      await sink.close();
    }
  }

  it("prints the stream's events, the earlier ones too with --from-start, filtered by --type", async () => {
    const earlier = eventLine("auth.password.changed", "user-10");
    await publish([earlier, eventLine("auth.session.revoked", "user-11")]);
    running = tail(["--nats", nats.url, "--from-start", "--type", "auth.password.changed"]);
    await expect.poll(running.following, { timeout: 30_000 }).toBe(true);
    const later = eventLine("auth.password.changed", "user-12");
    await publish([eventLine("auth.session.revoked", "user-13"), later]);
    await expect.poll(running.lines, { timeout: 30_000 }).toEqual([earlier, later]);

    const { interrupt } = running;
    running = undefined;
    expect(await interrupt()).toBe(0);
  });

  it("prints only new events without --from-start", async () => {
    await publish([eventLine("auth.password.changed", "user-20")]);
    running = tail([], { NATS_URL: nats.url });
    await expect.poll(running.following, { timeout: 30_000 }).toBe(true);
    const later = eventLine("auth.session.revoked", "user-21");
    await publish([later]);
    await expect.poll(running.lines, { timeout: 30_000 }).toEqual([later]);
  });
});
