import { startRelay } from "./loopback-relay.js";

/**
 * A loopback port that passes each connection on to NATS, and that the benchmark can cut: every
 * connection through it dropped and new ones closed at once, so that NATS is unreachable for the
 * suite alone (the machine's NATS and its other clients carry on), until it is opened again.
 */
export interface NatsGate {
  /** NATS's URL with the gate's address in it: the NATS_URL the suite is given. */
  url: string;
  cut(): void;
  open(): void;
  close(): Promise<void>;
}

export async function startNatsGate(natsUrl: string): Promise<NatsGate> {
  const target = new URL(natsUrl);
  const relay = await startRelay();
  const open = () => relay.passTo(Number(target.port || 4222), target.hostname);
  open();
  const url = new URL(natsUrl);
  url.hostname = "127.0.0.1";
  url.port = String(relay.port);
  return { url: url.toString(), cut: () => relay.cut(), open, close: () => relay.close() };
}
