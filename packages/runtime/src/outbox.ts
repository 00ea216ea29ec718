import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * The embedded default's stand-in for an SMS or e-mail provider: each message is appended as a
 * JSON line to a file that the demo and the tests read, and a summary is printed. Never for
 * production: the file holds the codes and links.
 */
export class JsonLinesOutbox<M extends object> {
  constructor(
    private readonly file: string,
    private readonly summary: (message: M) => string,
    private readonly print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  ) {}

  async deliver(message: M): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    await appendFile(this.file, `${JSON.stringify({ ...message, sentAt: new Date().toISOString() })}\n`);
    this.print(this.summary(message));
  }
}
