import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthError } from "@auth/errors";

/** A request as the fake provider got it. */
export interface ProviderRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** How the fake answers a request: a status with headers and body, or never ("hold"). */
export type ProviderAnswer = { status: number; headers?: Record<string, string>; body?: string } | "hold";

export interface FakeProvider {
  /** http://127.0.0.1:<port>: the base URL to point an SDK at. */
  url: string;
  /** Every request, in order, whatever was answered. */
  received: ProviderRequest[];
  close(): Promise<void>;
}

/**
 * A provider's API on loopback (node:http, a free port): `answer` speaks for it, given each request
 * and its index (0 first). A held request stays open until close.
 */
export async function startFakeProvider(
  answer: (request: ProviderRequest, index: number) => ProviderAnswer,
): Promise<FakeProvider> {
  const received: ProviderRequest[] = [];
  const server = createServer(async (request, response) => {
    let body = "";
    try {
      for await (const chunk of request) body += chunk;
    } catch {
      return; // The sender gave up while sending: nothing arrived.
    }
    const got: ProviderRequest = {
      method: request.method ?? "",
      path: request.url ?? "",
      headers: Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
      ),
      body,
    };
    const how = answer(got, received.push(got) - 1);
    if (how !== "hold") response.writeHead(how.status, how.headers).end(how.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The error a send failed with (every test of a failure asserts what it is). */
export const failureOf = (send: Promise<void>): Promise<AuthError> =>
  send.then(
    () => {
      throw new Error("the send succeeded");
    },
    (error: AuthError) => error,
  );
