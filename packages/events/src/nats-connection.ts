import { type ConnectRetry, connectWithRetry, type Logger } from "@auth/runtime";
import { connect, type NatsConnection, type NodeConnectionOptions } from "@nats-io/transport-node";
import { describeNats } from "./nats-address.js";

/**
 * How a client reaches the NATS of a nats:// or tls:// URL: tls:// requires TLS, its certificate
 * checked against `caFile` (Node's CAs without it); credentials in the URL are a user and
 * password, or a token alone. Once connected it reconnects forever.
 */
export function natsConnectOptions(url: string, caFile?: string): NodeConnectionOptions {
  const { protocol, hostname, port, username, password } = new URL(url);
  const user = decodeURIComponent(username);
  const pass = decodeURIComponent(password);
  return {
    servers: `${hostname}:${port || 4222}`,
    ...(user && pass ? { user, pass } : user ? { token: user } : {}),
    ...(protocol === "tls:" ? { tls: caFile ? { caFile } : {} } : {}),
    maxReconnectAttempts: -1,
  };
}

/** A connection to NATS made in the background. */
export interface BackgroundNatsConnection {
  /** The connection once made; undefined until then. */
  readonly current: NatsConnection | undefined;
  /** Settles once the connection is made; rejects only when `signal` aborts first. */
  readonly connected: Promise<void>;
}

/**
 * The first connection to NATS, attempt after attempt until NATS answers or `signal` aborts (later
 * ones the client makes by itself): a process starts while NATS is away. An attempt abandoned after
 * its timeout closes what it opens, whenever that is.
 */
export function connectNatsInBackground(options: {
  url: string;
  caFile?: string;
  retry: ConnectRetry;
  logger: Logger;
  signal: AbortSignal;
}): BackgroundNatsConnection {
  const { url, retry, signal } = options;
  let connection: NatsConnection | undefined;
  let current = { abandoned: false };
  const connected = connectWithRetry(
    {
      store: describeNats(url),
      attempt: async () => {
        const mine = { abandoned: false };
        current = mine;
        const opened = await connect({
          ...natsConnectOptions(url, options.caFile),
          timeout: retry.attemptTimeoutMs,
        });
        if (mine.abandoned || signal.aborted) {
          await opened.close();
          throw new Error("attempt abandoned");
        }
        connection = opened;
      },
      abandon: () => {
        current.abandoned = true;
      },
    },
    retry,
    options.logger,
    signal,
  );
  connected.catch(() => {
    // Rejects only when stopped before NATS answered.
  });
  return {
    get current() {
      return connection;
    },
    connected,
  };
}
