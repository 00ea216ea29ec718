import { open } from "node:fs/promises";
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pacing } from "@auth/events";
import type { Logger } from "@auth/runtime";
import type { AuditStore } from "../store/audit-store.js";
import { backoffMs, type EventWriter, type Feed, type FeedOptions, messageOf } from "./feed.js";

export interface FileFeedOptions extends FeedOptions {
  /** The store, which keeps the file's offset too. */
  writer: EventWriter & Pick<AuditStore, "feedPosition">;
  /** EVENTS_FILE: the JSON lines the relays append to. */
  path: string;
  /** Milliseconds between two looks at a file that had new lines before (EVENTS_POLL_MS). */
  pollMs: number;
  /** The longest wait between two looks at a file that stays as it is (EVENTS_IDLE_POLL_MS). */
  idlePollMs: number;
  logger: Logger;
  /** The most bytes read for one batch, unless one line is longer. */
  chunkBytes?: number;
}

const newline = 0x0a;

/** The complete lines of the file from `position`, up to about `chunkBytes`; none while the last is partial. */
async function readLines(
  path: string,
  position: number,
  chunkBytes: number,
): Promise<{ lines: string[]; next: number } | "missing" | "truncated"> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw error;
  }
  try {
    const { size } = await file.stat();
    if (size < position) return "truncated";
    // A line longer than a chunk is read whole: the chunk doubles until it holds a newline.
    for (let length = Math.min(chunkBytes, size - position); length > 0; ) {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, position);
      const end = buffer.subarray(0, bytesRead).lastIndexOf(newline);
      if (end >= 0) {
        const lines = buffer
          .subarray(0, end)
          .toString("utf8")
          .split("\n")
          .filter((line) => line.trim() !== "");
        return { lines, next: position + end + 1 };
      }
      if (length === size - position) break;
      length = Math.min(length * 2, size - position);
    }
    return { lines: [], next: position };
  } finally {
    await file.close();
  }
}

/**
 * Follows the events file (the embedded default's stream: docs/decisions.md, "Audit trail and
 * webhooks"): from the byte offset stored in feed_positions, it reads complete lines only, and
 * stores their events and the offset after them in one transaction, so a restart goes on where
 * the last commit left off. It waits for the file to appear; a file shorter than the offset (made
 * anew) is read again from its start, the copies dropped by their ids.
 */
export function startFileFeed(options: FileFeedOptions): Feed {
  const { writer, logger } = options;
  const path = resolve(options.path);
  const feed = `file:${path}`;
  const chunkBytes = options.chunkBytes ?? 256 * 1024;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const stopping = new AbortController();
  const stopped = new Promise<void>((done) =>
    stopping.signal.addEventListener("abort", () => done(), { once: true }),
  );
  const wait = (ms: number) => sleep(ms, undefined, { signal: stopping.signal }).catch(() => {});
  const pace = pacing(options.pollMs, options.idlePollMs, stopping.signal);

  const running = (async () => {
    await Promise.race([options.ready, stopped]);
    let position: number | undefined;
    let failures = 0;
    let waitingForFile = false;
    while (!stopping.signal.aborted) {
      try {
        position ??= await writer.feedPosition(feed);
        const read = await readLines(path, position, chunkBytes);
        if (read === "missing") {
          if (!waitingForFile) logger.info({ events: path }, "waiting for the events file");
          waitingForFile = true;
          await pace.wait(false);
          continue;
        }
        waitingForFile = false;
        if (read === "truncated") {
          logger.warn(
            { events: path },
            "the events file is shorter than the offset read: reading it again from its start",
          );
          position = 0;
          continue;
        }
        if (read.next === position) {
          await pace.wait(false);
          continue;
        }
        const outcome = await writer.storeEvents(read.lines, { feed, position: read.next });
        position = read.next;
        pace.wake();
        if (failures > 0) logger.info({ events: path }, "security events read again");
        failures = 0;
        options.afterStore?.(outcome);
      } catch (error) {
        failures += 1;
        // The offset is read again: the failed batch may or may not have committed.
        position = undefined;
        const retryInMs = Math.round(backoffMs(failures, maxBackoffMs));
        logger.warn(
          { events: path, error: messageOf(error), attempt: failures, retryInMs },
          "security events not read, retrying",
        );
        await wait(retryInMs);
      }
    }
  })();

  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
