import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthError } from "@auth/errors";
import { CaptchaProvider, type CaptchaSettings } from "@auth/proto/identity";
import { createLogger } from "@auth/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captchaCheck } from "./captcha-check.js";
import { devCaptchaPass } from "./dev.js";

interface Siteverify {
  url: string;
  /** The forms the provider received. */
  received: Array<Record<string, string>>;
}

let server: Server | undefined;

/**
 * A local HTTP server that plays a siteverify endpoint, answering `answer` (or a status) to every
 * request, or never when `hangs`.
 */
async function provider(answer: Record<string, unknown> | number, hangs = false): Promise<Siteverify> {
  const received: Array<Record<string, string>> = [];
  server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    received.push(Object.fromEntries(new URLSearchParams(body)));
    if (hangs) return;
    if (typeof answer === "number") response.writeHead(answer).end();
    else response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`, received };
}

afterEach(async () => {
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

/** What the checks logged, each line parsed. */
let logged: Array<Record<string, unknown>> = [];
beforeEach(() => {
  logged = [];
});
const logger = createLogger("identity", "info", {
  write: (line: string) => {
    logged.push(JSON.parse(line) as Record<string, unknown>);
  },
});
const failures = () => logged.filter((line) => line.msg === "captcha check failed");

// Generous for a provider that answers: a first request on a loaded machine took over 300 ms.
const check = captchaCheck({ allowDev: false, timeoutMs: 10_000, logger });

describe.each([
  ["reCAPTCHA", CaptchaProvider.RECAPTCHA],
  ["hCaptcha", CaptchaProvider.HCAPTCHA],
  ["Turnstile", CaptchaProvider.TURNSTILE],
])("the %s verifier", (_, kind) => {
  it("posts secret, response and client address to siteverify and passes on success", async () => {
    const site = await provider({ success: true });
    const settings: CaptchaSettings = { provider: kind, secret: "s3cret", verifyUrl: site.url };
    expect(await check.verify(settings, "token-1", "203.0.113.7")).toBe(true);
    expect(site.received).toEqual([{ secret: "s3cret", response: "token-1", remoteip: "203.0.113.7" }]);
  });

  it("fails when the provider says so", async () => {
    const site = await provider({ success: false, "error-codes": ["invalid-input-response"] });
    expect(await check.verify({ provider: kind, secret: "s", verifyUrl: site.url }, "t", "::1")).toBe(false);
  });

  it("answers service.unavailable when the provider fails", async () => {
    const site = await provider(502);
    const error = (await check
      .verify({ provider: kind, secret: "s", verifyUrl: site.url }, "t", "::1")
      .catch((e) => e)) as AuthError;
    expect(error.code).toBe("service.unavailable");
  });
});

describe("the reCAPTCHA v3 score", () => {
  it("must reach the company's minimum, 0.5 by default", async () => {
    const site = await provider({ success: true, score: 0.4 });
    expect(
      await check.verify({ provider: CaptchaProvider.RECAPTCHA, secret: "s", verifyUrl: site.url }, "t", ""),
    ).toBe(false);
    expect(
      await check.verify(
        { provider: CaptchaProvider.RECAPTCHA, secret: "s", verifyUrl: site.url, minScore: 0.3 },
        "t",
        "",
      ),
    ).toBe(true);
  });
});

describe("a provider that does not answer", () => {
  it("is given up after the timeout with service.unavailable", async () => {
    // Without the timeout the check would wait for ever, and the test would run out of time.
    const site = await provider({ success: true }, true);
    const error = (await captchaCheck({ allowDev: false, timeoutMs: 300, logger })
      .verify({ provider: CaptchaProvider.TURNSTILE, secret: "s", verifyUrl: site.url }, "t", "")
      .catch((e) => e)) as AuthError;
    expect(error.code).toBe("service.unavailable");
    expect(site.received).toHaveLength(1);
  });
});

describe("the dev verifier", () => {
  it("accepts only its fixed response, and only where the gateway allows it", async () => {
    const settings: CaptchaSettings = { provider: CaptchaProvider.DEV, secret: "" };
    const devAllowed = captchaCheck({ allowDev: true, timeoutMs: 10_000, logger });
    expect(await devAllowed.verify(settings, devCaptchaPass, "")).toBe(true);
    expect(await devAllowed.verify(settings, "anything else", "")).toBe(false);
    expect(await check.verify(settings, devCaptchaPass, "")).toBe(false);
  });
});

describe("a company without a captcha provider", () => {
  it("never passes a captcha", async () => {
    expect(await check.verify(undefined, devCaptchaPass, "")).toBe(false);
    expect(await check.verify({ provider: CaptchaProvider.UNSPECIFIED, secret: "" }, "x", "")).toBe(false);
  });
});

describe("a failed captcha check", () => {
  it("logs that the company has no provider", async () => {
    await check.verify(undefined, "x", "");
    expect(failures()).toEqual([
      expect.objectContaining({ level: 40, reason: "the company has no captcha provider (policy.captcha)" }),
    ]);
  });

  it("logs that the dev captcha is not allowed here", async () => {
    await check.verify({ provider: CaptchaProvider.DEV, secret: "" }, devCaptchaPass, "");
    expect(failures()).toEqual([
      expect.objectContaining({
        provider: "CAPTCHA_PROVIDER_DEV",
        reason: expect.stringContaining("ALLOW_DEV_CAPTCHA"),
      }),
    ]);
  });

  it("logs that the provider could not be reached", async () => {
    const site = await provider(503);
    await expect(
      check.verify({ provider: CaptchaProvider.HCAPTCHA, secret: "s", verifyUrl: site.url }, "t", ""),
    ).rejects.toMatchObject({ code: "service.unavailable" });
    expect(failures()).toEqual([
      expect.objectContaining({ provider: "CAPTCHA_PROVIDER_HCAPTCHA", reason: "provider unreachable" }),
    ]);
  });

  it("logs the provider's reasons for a rejection, never the secret or the response", async () => {
    const site = await provider({ success: false, "error-codes": ["invalid-input-secret"] });
    const settings = { provider: CaptchaProvider.TURNSTILE, secret: "the-secret", verifyUrl: site.url };
    expect(await check.verify(settings, "the-response", "")).toBe(false);
    expect(failures()).toEqual([
      expect.objectContaining({
        provider: "CAPTCHA_PROVIDER_TURNSTILE",
        reason: "rejected by the provider",
        errorCodes: ["invalid-input-secret"],
      }),
    ]);
    expect(JSON.stringify(logged)).not.toMatch(/the-secret|the-response/);
  });
});
