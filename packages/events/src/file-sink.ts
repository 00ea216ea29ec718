import { mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import type { EventSink } from "./sink.js";

/**
 * The embedded default's sink: each batch appended to one JSON-lines file as one write (O_APPEND,
 * so that the processes of `npm start` appending to the same file never interleave within a line),
 * acknowledged once it is on disk. `authctl events tail` follows the file.
 */
export function fileEventSink(path: string): EventSink {
  return {
    async publish(events) {
      if (events.length === 0) return;
      await mkdir(dirname(path), { recursive: true });
      const file = await open(path, "a");
      try {
        await file.write(events.map((event) => `${event.json}\n`).join(""));
        await file.datasync();
      } finally {
        await file.close();
      }
    },
    close: async () => {},
  };
}
