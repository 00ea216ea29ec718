import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeProvider,
  failureOf,
  type ProviderAnswer,
  startFakeProvider,
} from "./fake-provider.testing.js";
import { TwilioSmsProvider } from "./twilio-sms-provider.js";

const accountSid = `AC${"0123456789abcdef".repeat(2)}`;
const authToken = "twilio-auth-token";
/** Twilio's test number for a To that is not a valid phone number (error 21211). */
const invalidNumber = "+15005550001";

const error = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  ({
    status,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }),
  }) satisfies ProviderAnswer;

interface Delivered {
  to: string | null;
  from: string | null;
  messagingServiceSid: string | null;
  body: string | null;
}

let fake: FakeProvider | undefined;
afterEach(() => fake?.close());

/**
 * Twilio's Messages API as far as a send uses it: POST a form to
 * /2010-04-01/Accounts/{AccountSid}/Messages.json with Basic auth of the Account SID and Auth Token.
 * The first `throttled` requests are answered 429 with `retryAfter`; with `hold`, none is answered.
 */
async function twilioApi(options: { throttled?: number; retryAfter?: string; hold?: boolean } = {}) {
  const delivered: Delivered[] = [];
  fake = await startFakeProvider((request, index) => {
    if (options.hold) return "hold";
    if (request.headers.authorization !== `Basic ${btoa(`${accountSid}:${authToken}`)}`) {
      return error(401, 20003, "Authenticate");
    }
    if (
      request.method !== "POST" ||
      request.path !== `/2010-04-01/Accounts/${accountSid}/Messages.json` ||
      request.headers["content-type"] !== "application/x-www-form-urlencoded"
    ) {
      return error(404, 20404, "The requested resource was not found");
    }
    if (index < (options.throttled ?? 0)) {
      return error(
        429,
        20429,
        "Too Many Requests",
        options.retryAfter ? { "retry-after": options.retryAfter } : {},
      );
    }
    const form = new URLSearchParams(request.body);
    if (form.get("To") === invalidNumber) return error(400, 21211, "Invalid 'To' Phone Number");
    const message = {
      to: form.get("To"),
      from: form.get("From"),
      messagingServiceSid: form.get("MessagingServiceSid"),
      body: form.get("Body"),
    };
    delivered.push(message);
    return {
      status: 201,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        sid: `SM${"1".repeat(32)}`,
        status: "queued",
        account_sid: accountSid,
        ...message,
      }),
    };
  });
  return { url: fake.url, received: fake.received, delivered };
}

const message = { companyId: "c1", to: "+15551234567", text: "Your code is 123456" };
const twilio = (url: string, overrides: { token?: string; sender?: string; timeoutMs?: number } = {}) =>
  new TwilioSmsProvider(
    {
      url,
      account: accountSid,
      token: overrides.token ?? authToken,
      sender: overrides.sender ?? "+15557654321",
    },
    { timeoutMs: overrides.timeoutMs ?? 10_000, retries: 2 },
  );

describe("Twilio SMS provider (docs/decisions.md, SMS providers)", () => {
  it("sends one message: To the user, From the company's number, the text as Body, with the Account SID and Auth Token", async () => {
    const api = await twilioApi();
    await twilio(api.url).send(message);
    expect(api.received).toHaveLength(1);
    expect(api.delivered).toEqual([
      { to: message.to, from: "+15557654321", messagingServiceSid: null, body: message.text },
    ]);
  });

  it("sends through a Messaging Service when the sender is its SID", async () => {
    const api = await twilioApi();
    const service = `MG${"a".repeat(32)}`;
    await twilio(api.url, { sender: service }).send(message);
    expect(api.delivered).toEqual([
      { to: message.to, from: null, messagingServiceSid: service, body: message.text },
    ]);
  });

  it("takes a refused number (21211) as final: one request, service.unavailable naming the code", async () => {
    const api = await twilioApi();
    const failure = await failureOf(twilio(api.url).send({ ...message, to: invalidNumber }));
    expect(failure.code).toBe("service.unavailable");
    expect(failure.message).toBe("SMS not sent: Twilio answered 400 (error 21211)");
    expect(failure.message).not.toContain(invalidNumber);
    expect(api.received).toHaveLength(1);
  });

  it("does not repeat a send that timed out, which Twilio may have taken: one request, service.unavailable", async () => {
    const api = await twilioApi({ hold: true });
    const failure = await failureOf(twilio(api.url, { timeoutMs: 1_000 }).send(message));
    expect(failure.code).toBe("service.unavailable");
    expect(failure.message).toBe("SMS not sent: ECONNABORTED");
    expect(api.received).toHaveLength(1);
  });

  it("tries a 429 again once its Retry-After has passed: two requests, one message delivered", async () => {
    const api = await twilioApi({ throttled: 1, retryAfter: "1" });
    const started = performance.now();
    await twilio(api.url).send(message);
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expect(api.received).toHaveLength(2);
    expect(api.delivered).toHaveLength(1);
  });

  it("does not wait for a Retry-After longer than the send's timeout: one request", async () => {
    const api = await twilioApi({ throttled: 1, retryAfter: "60" });
    const failure = await failureOf(twilio(api.url).send(message));
    expect(failure.message).toBe("SMS not sent: Twilio answered 429 (error 20429)");
    expect(api.received).toHaveLength(1);
  });

  it("takes bad credentials (20003) as final: one request", async () => {
    const api = await twilioApi();
    const failure = await failureOf(twilio(api.url, { token: "wrong-token" }).send(message));
    expect(failure.message).toBe("SMS not sent: Twilio answered 401 (error 20003)");
    expect(api.received).toHaveLength(1);
    expect(api.delivered).toEqual([]);
  });
});
