import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeProvider,
  failureOf,
  type ProviderAnswer,
  startFakeProvider,
} from "./fake-provider.testing.js";
import { VonageSmsProvider } from "./vonage-sms-provider.js";

const apiKey = "a1b2c3d4";
const apiSecret = "vonage-api-secret";
/** Numbers the fake's API refuses, with the status it refuses them with. */
const refusedNumbers: Record<string, { status: string; errorText: string }> = {
  "+15550000003": { status: "3", errorText: "Invalid to address" },
  "+15550000006": { status: "6", errorText: "Unroutable message - rejected" },
};

/** The SMS API's answer for one message: 200, with the message's status in the body. */
const messages = (entry: Record<string, string>) =>
  ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ "message-count": "1", messages: [entry] }),
  }) satisfies ProviderAnswer;

let fake: FakeProvider | undefined;
afterEach(() => fake?.close());

/**
 * Vonage's SMS API as far as a send uses it: POST JSON to /sms/json with Basic auth of the API key
 * and secret. The first `throttled` requests are refused as Vonage does (status 1, "Throttled") or,
 * with `as429`, with HTTP 429; with `hold`, none is answered.
 */
async function vonageApi(options: { throttled?: number; as429?: boolean; hold?: boolean } = {}) {
  const delivered: Array<{ to: string; from: string; text: string }> = [];
  fake = await startFakeProvider((request, index) => {
    if (options.hold) return "hold";
    if (
      request.method !== "POST" ||
      request.path !== "/sms/json" ||
      request.headers["content-type"] !== "application/json"
    ) {
      return { status: 404 };
    }
    if (request.headers.authorization !== `Basic ${btoa(`${apiKey}:${apiSecret}`)}`) {
      return messages({ status: "4", "error-text": "Bad Credentials" });
    }
    if (index < (options.throttled ?? 0)) {
      return options.as429 ? { status: 429 } : messages({ status: "1", "error-text": "Throttled" });
    }
    const { to, from, text } = JSON.parse(request.body) as { to: string; from: string; text: string };
    const refused = refusedNumbers[`+${to}`];
    if (refused) return messages({ status: refused.status, "error-text": refused.errorText });
    delivered.push({ to, from, text });
    return messages({ to, "message-id": "0A0000000123ABCD1", status: "0", network: "310260" });
  });
  return { url: fake.url, received: fake.received, delivered };
}

const message = { companyId: "c1", to: "+15551234567", text: "Your code is 123456" };
const vonage = (url: string, overrides: { secret?: string; timeoutMs?: number } = {}) =>
  new VonageSmsProvider(
    { url, account: apiKey, token: overrides.secret ?? apiSecret, sender: "Acme" },
    { timeoutMs: overrides.timeoutMs ?? 10_000, retries: 2 },
  );

describe("Vonage SMS provider (docs/decisions.md, SMS providers)", () => {
  it("sends one message: to the user's number without its +, from the company's sender ID, with the API key and secret", async () => {
    const api = await vonageApi();
    await vonage(api.url).send(message);
    expect(api.received).toHaveLength(1);
    expect(api.delivered).toEqual([{ to: "15551234567", from: "Acme", text: message.text }]);
  });

  it.each(Object.entries(refusedNumbers))(
    "takes a refused number (%s) as final: one request, service.unavailable naming the status",
    async (number, { status }) => {
      const api = await vonageApi();
      const failure = await failureOf(vonage(api.url).send({ ...message, to: number }));
      expect(failure.code).toBe("service.unavailable");
      expect(failure.message).toBe(`SMS not sent: Vonage status ${status}`);
      expect(api.received).toHaveLength(1);
    },
  );

  it("does not repeat a send that timed out, which Vonage may have taken: one request, service.unavailable", async () => {
    const api = await vonageApi({ hold: true });
    const failure = await failureOf(vonage(api.url, { timeoutMs: 1_000 }).send(message));
    expect(failure.code).toBe("service.unavailable");
    expect(failure.message).toBe("SMS not sent: AbortError");
    expect(api.received).toHaveLength(1);
  });

  it.each([
    ["status 1 (Throttled)", false],
    ["HTTP 429", true],
  ])("tries a rate limit answered with %s again: two requests, one message delivered", async (_, as429) => {
    const api = await vonageApi({ throttled: 1, as429 });
    await vonage(api.url).send(message);
    expect(api.received).toHaveLength(2);
    expect(api.delivered).toHaveLength(1);
  });

  it("takes bad credentials (status 4) as final: one request", async () => {
    const api = await vonageApi();
    const failure = await failureOf(vonage(api.url, { secret: "wrong-secret" }).send(message));
    expect(failure.message).toBe("SMS not sent: Vonage status 4");
    expect(api.received).toHaveLength(1);
    expect(api.delivered).toEqual([]);
  });
});
