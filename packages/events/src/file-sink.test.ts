import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileEventSink } from "./file-sink.js";
import { someEvents } from "./relay.testing.js";
import type { RelayedEvent } from "./sink.js";

describe("the events file", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "events-file-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const relayed = (json: string): RelayedEvent => ({ id: "", source: "", type: "", time: new Date(), json });

  it("appends each event as one line, as stored, creating the folder", async () => {
    const file = join(dir, "nested", "events.jsonl");
    const events = someEvents(3);
    await fileEventSink(file).publish(events.slice(0, 2).map(relayed));
    await fileEventSink(file).publish(events.slice(2).map(relayed));
    expect(readFileSync(file, "utf8")).toBe(events.map((event) => `${event}\n`).join(""));
  });

  it("keeps every line whole when several processes append at once", async () => {
    const file = join(dir, "events.jsonl");
    const batches = Array.from({ length: 20 }, (_, index) => someEvents(50, index * 50));
    await Promise.all(batches.map((batch) => fileEventSink(file).publish(batch.map(relayed))));
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines.sort()).toEqual(batches.flat().sort());
  });
});
