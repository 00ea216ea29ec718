import { createHmac, timingSafeEqual } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeProvider,
  failureOf,
  type ProviderRequest,
  startFakeProvider,
} from "./fake-provider.testing.js";
import { HttpSmsProvider } from "./http-sms-provider.js";

let fake: FakeProvider | undefined;
afterEach(() => fake?.close());

/** A company's SMS endpoint, answering with the given statuses in turn ("hold": no answer), then 200. */
async function endpoint(answers: Array<number | "hold"> = []) {
  fake = await startFakeProvider((_, index) => {
    const answer = answers[index] ?? 200;
    return answer === "hold" ? "hold" : { status: answer };
  });
  return { url: `${fake.url}/sms`, received: fake.received };
}

/** The receiver's check, as docs/operations.md ("Message senders") shows it. */
function verify(headers: Record<string, string | undefined>, rawBody: string, token: string): boolean {
  const expected = `sha256=${createHmac("sha256", token).update(`${headers["x-timestamp"]}.${rawBody}`).digest("hex")}`;
  const given = headers["x-signature"] ?? "";
  const fresh = Math.abs(Date.now() / 1000 - Number(headers["x-timestamp"])) <= 300;
  return (
    fresh && given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected))
  );
}

const bodyOf = (request: ProviderRequest | undefined) =>
  JSON.parse(request?.body ?? "{}") as Record<string, string>;
const message = { companyId: "c1", to: "+15551234567", text: "code 123456" };
const provider = (url: string, options: { token?: string; timeoutMs?: number; retries?: number } = {}) =>
  new HttpSmsProvider({
    url,
    token: options.token ?? "t",
    timeoutMs: options.timeoutMs ?? 10_000,
    retries: options.retries ?? 2,
  });

describe("HTTP SMS provider (docs/decisions.md, SMS providers)", () => {
  it('posts {"id", "to", "text"} as JSON with the bearer token, the id also as Idempotency-Key', async () => {
    const { url, received } = await endpoint([202]);
    await provider(url, { token: "secret" }).send(message);
    expect(received).toHaveLength(1);
    const [request] = received;
    const body = bodyOf(request);
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      to: message.to,
      text: message.text,
    });
    expect(request?.headers).toMatchObject({
      "content-type": "application/json",
      authorization: "Bearer secret",
      "idempotency-key": body.id,
    });
  });

  it("signs each request: X-Signature is sha256= the HMAC-SHA-256 of '<X-Timestamp>.<body>' under the token", async () => {
    const { url, received } = await endpoint();
    await provider(url, { token: "signing-token" }).send(message);
    const [request] = received;
    expect(request?.headers["x-timestamp"]).toMatch(/^\d{10}$/);
    expect(verify(request?.headers ?? {}, request?.body ?? "", "signing-token")).toBe(true);
    expect(verify(request?.headers ?? {}, request?.body ?? "", "another-token")).toBe(false);
    expect(
      verify(request?.headers ?? {}, request?.body.replace("123456", "654321") ?? "", "signing-token"),
    ).toBe(false);
  });

  it("tries again after a 5xx answer with the same id and Idempotency-Key", async () => {
    const { url, received } = await endpoint([500, 503]);
    await provider(url).send(message);
    expect(received).toHaveLength(3);
    const ids = received.map((request) => [bodyOf(request).id, request.headers["idempotency-key"]]);
    expect(new Set(ids.flat()).size).toBe(1);
  });

  it("tries a timeout again with the same id: the receiver drops the repeat", async () => {
    const { url, received } = await endpoint(["hold"]);
    await provider(url, { timeoutMs: 1_000 }).send(message);
    expect(received).toHaveLength(2);
    expect(bodyOf(received[1]).id).toBe(bodyOf(received[0]).id);
    expect(received[1]?.headers["idempotency-key"]).toBe(received[0]?.headers["idempotency-key"]);
  });

  it("fails clearly when the provider keeps failing", async () => {
    const { url, received } = await endpoint([500, 500, 500]);
    const error = await failureOf(provider(url).send(message));
    expect(error.code).toBe("service.unavailable");
    expect(error.message).toBe("SMS not sent: provider answered 500");
    expect(received).toHaveLength(3);
  });

  it("does not retry a refused request", async () => {
    const { url, received } = await endpoint([400, 200]);
    const error = await failureOf(provider(url).send(message));
    expect(error.code).toBe("service.unavailable");
    expect(received).toHaveLength(1);
  });

  it("gives up on a provider that does not answer in time", async () => {
    const { url, received } = await endpoint(["hold", "hold"]);
    const error = await failureOf(provider(url, { timeoutMs: 1_000, retries: 1 }).send(message));
    expect(error.code).toBe("service.unavailable");
    expect(error.message).toBe("SMS not sent: TimeoutError");
    expect(received).toHaveLength(2);
  });
});
