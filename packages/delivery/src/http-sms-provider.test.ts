import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthError } from "@auth/errors";
import { afterEach, describe, expect, it } from "vitest";
import { HttpSmsProvider } from "./http-sms-provider.js";

interface Received {
  authorization: string | undefined;
  body: unknown;
}

let server: Server | undefined;

/** A local HTTP server that plays the SMS provider, answering with the given statuses in turn. */
async function provider(statuses: number[], delayMs = 0): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  server = createServer(async (request: IncomingMessage, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    received.push({ authorization: request.headers.authorization, body: JSON.parse(body) });
    setTimeout(() => response.writeHead(statuses.shift() ?? 200).end(), delayMs);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`, received };
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server?.closeAllConnections();
});

const message = { companyId: "c1", to: "+15551234567", text: "code 123456" };

describe("HTTP SMS provider", () => {
  it("posts the message as JSON with the bearer token", async () => {
    const { url, received } = await provider([202]);
    await new HttpSmsProvider({ url, token: "secret", timeoutMs: 1_000, retries: 0 }).send(message);
    expect(received).toEqual([
      { authorization: "Bearer secret", body: { to: message.to, text: message.text } },
    ]);
  });

  it("tries again after a 5xx answer", async () => {
    const { url, received } = await provider([503, 200]);
    await new HttpSmsProvider({ url, token: "t", timeoutMs: 1_000, retries: 2 }).send(message);
    expect(received).toHaveLength(2);
  });

  it("fails clearly when the provider keeps failing", async () => {
    const { url, received } = await provider([500, 500, 500]);
    const error = (await new HttpSmsProvider({ url, token: "t", timeoutMs: 1_000, retries: 2 })
      .send(message)
      .catch((e) => e)) as AuthError;
    expect(error.code).toBe("service.unavailable");
    expect(error.message).toContain("500");
    expect(received).toHaveLength(3);
  });

  it("does not retry a refused request", async () => {
    const { url, received } = await provider([400, 200]);
    const error = (await new HttpSmsProvider({ url, token: "t", timeoutMs: 1_000, retries: 2 })
      .send(message)
      .catch((e) => e)) as AuthError;
    expect(error.code).toBe("service.unavailable");
    expect(received).toHaveLength(1);
  });

  it("gives up on a provider that does not answer in time", async () => {
    const { url } = await provider([200, 200], 500);
    const error = (await new HttpSmsProvider({ url, token: "t", timeoutMs: 100, retries: 1 })
      .send(message)
      .catch((e) => e)) as AuthError;
    expect(error.code).toBe("service.unavailable");
    expect(error.message).toContain("TimeoutError");
  });
});
