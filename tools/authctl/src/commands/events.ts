import { type Command, Option } from "commander";
import type { TailOptions } from "./tail-events.js";

export function eventsCommands(program: Command): void {
  const events = program
    .command("events")
    .description('the security events the services record (docs/decisions.md, "Security events")');

  events
    .command("tail")
    .description(
      "print each new security event as its JSON line, until Ctrl-C: from the events file the services append to without NATS, or with --nats from the AUTH_EVENTS stream",
    )
    .addOption(
      new Option("--file <path>", "the events file").env("EVENTS_FILE").default(".data/events.jsonl"),
    )
    .option(
      "--type <type>",
      "only events of this type; * stands for one word, > for the rest (auth.login.*, admin.>)",
    )
    .option("--from-start", "print the events already there first", false)
    .addOption(
      new Option("--nats <url>", "follow the AUTH_EVENTS stream of this NATS (nats:// or tls://)").env(
        "NATS_URL",
      ),
    )
    .addOption(
      new Option("--nats-ca <file>", "the CA that signed the NATS servers' certificates (tls://)").env(
        "NATS_CA_FILE",
      ),
    )
    .action(async (options: TailOptions) => {
      // Loaded by this command alone: NATS's client would slow every other one's start.
      const { tailEvents } = await import("./tail-events.js");
      const stop = new AbortController();
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
      await tailEvents(options, stop.signal);
    });
}
