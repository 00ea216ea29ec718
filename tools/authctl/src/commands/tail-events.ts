import { createInterface } from "node:readline";
import { describeNats } from "@auth/events";
import { eventStream, natsConnectOptions, subjectFilterOf } from "@auth/events/nats";
import TailFile from "@logdna/tail-file";
import { DeliverPolicy, jetstream } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { typeMatches } from "./event-types.js";

export interface TailOptions {
  file: string;
  type?: string;
  fromStart: boolean;
  nats?: string;
  natsCa?: string;
}

const print = (line: string) => process.stdout.write(`${line}\n`);
/** On stderr, so that stdout holds only events. */
const following = (what: string) => process.stderr.write(`authctl: following ${what} (Ctrl-C to stop)\n`);

/** The type of an event line; undefined for a line that is no event. */
function typeOf(line: string): string | undefined {
  try {
    const { type } = JSON.parse(line) as { type?: unknown };
    return typeof type === "string" ? type : undefined;
  } catch {
    return undefined;
  }
}

/** Follows the events file (the embedded default's sink) until `stop` aborts. */
async function tailFile(options: TailOptions, stop: AbortSignal): Promise<void> {
  const tail = new TailFile(options.file, {
    encoding: "utf8",
    startPos: options.fromStart ? 0 : null,
    pollFileIntervalMs: 250,
  });
  const failed = new Promise<never>((_, reject) => tail.once("tail_error", reject));
  await tail.start().catch(() => {
    throw new Error(
      `no events file at ${options.file}: the services write it once started without NATS_URL (--file or EVENTS_FILE names another)`,
    );
  });
  following(options.file);
  createInterface({ input: tail, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    const type = typeOf(line);
    if (!options.type || (type !== undefined && typeMatches(options.type, type))) print(line);
  });
  try {
    await Promise.race([failed, new Promise((resolve) => stop.addEventListener("abort", resolve))]);
  } finally {
    await tail.quit();
  }
}

/** Follows the AUTH_EVENTS stream with an ordered consumer until `stop` aborts. */
async function tailStream(url: string, options: TailOptions, stop: AbortSignal): Promise<void> {
  const nc = await connect(natsConnectOptions(url, options.natsCa));
  try {
    const consumer = await jetstream(nc).consumers.get(eventStream.name, {
      filter_subjects: subjectFilterOf(options.type),
      deliver_policy: options.fromStart ? DeliverPolicy.All : DeliverPolicy.New,
    });
    const messages = await consumer.consume();
    following(`${eventStream.name} at ${describeNats(url)}`);
    stop.addEventListener("abort", () => messages.stop());
    for await (const message of messages) print(message.string());
  } finally {
    await nc.close();
  }
}

/** Follows the events until `stop` aborts: the AUTH_EVENTS stream with --nats, else the events file. */
export function tailEvents(options: TailOptions, stop: AbortSignal): Promise<void> {
  return options.nats ? tailStream(options.nats, options, stop) : tailFile(options, stop);
}
