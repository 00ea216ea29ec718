import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { request } from "node:https";
import { createSecureContext, rootCertificates } from "node:tls";
import { RequestFilteringHttpsAgent } from "request-filtering-agent";
import { Webhook } from "standardwebhooks";

/** One attempt to deliver an event to a webhook. */
export interface Attempt {
  url: string;
  /** The event's id: `webhook-id`. */
  eventId: string;
  /** The event's CloudEvents JSON. */
  payload: string;
  /** Every secret that signs: one `v1,` signature each. */
  secrets: string[];
  /** The attempt's time: `webhook-timestamp`. */
  timestamp: Date;
}

/**
 * What came of an attempt: the receiver's HTTP status (0 without one) and, unless it was 2xx, why
 * it failed in a few words ("timeout", "refused address", "connection refused", "status 503",
 * "redirect not followed", "tls: ..."), never the receiver's body.
 */
export interface AttemptResult {
  status: number;
  error: string;
}

export interface Sender {
  /** Never throws: a failure is a result. */
  send(attempt: Attempt): Promise<AttemptResult>;
}

export interface HttpsSenderOptions {
  /** WEBHOOK_TIMEOUT_MS: the whole attempt, from connecting to the answer's last byte read. */
  timeoutMs: number;
  /** WEBHOOK_ALLOWED_CIDRS: the non-public addresses a connection may reach. */
  allowedCidrs: readonly string[];
  /** PEM certificates to trust beside Node's own CAs (WEBHOOK_CA_FILE's). */
  extraCa?: string;
}

/** Of the answer's body, only this much is read (and dropped): a receiver cannot make a sender buffer more. */
const bodyLimitBytes = 64 * 1024;
const userAgent = "auth-suite-webhooks/1";

/** The signatures of the Standard Webhooks scheme, one per secret, space separated. */
export function signatureHeader(attempt: Attempt): string {
  return attempt.secrets
    .map((secret) => new Webhook(secret).sign(attempt.eventId, attempt.timestamp, attempt.payload))
    .join(" ");
}

function resultOfStatus(status: number): AttemptResult {
  if (status >= 200 && status < 300) return { status, error: "" };
  if (status >= 300 && status < 400) return { status, error: "redirect not followed" };
  return { status, error: `status ${status}` };
}

const tlsCode = /CERT|SSL|TLS|UNABLE_TO_|SIGNATURE|ISSUER/;

/** A connection's failure in words; the filtering agent's refusal names neither host nor address here. */
function resultOfError(error: unknown): AttemptResult {
  const failure = error as Error & { code?: string; errors?: Array<{ code?: string }> };
  const code = failure.code ?? failure.errors?.[0]?.code ?? "";
  if (/is not allowed/.test(failure.message ?? "")) return { status: 0, error: "refused address" };
  if (code === "ECONNREFUSED") return { status: 0, error: "connection refused" };
  if (code === "ECONNRESET") return { status: 0, error: "connection reset" };
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return { status: 0, error: "name not resolved" };
  if (tlsCode.test(code)) {
    return {
      status: 0,
      error: `tls: ${code
        .replace(/^ERR_(TLS|SSL)_/, "")
        .toLowerCase()
        .replaceAll("_", " ")}`,
    };
  }
  return { status: 0, error: code ? `network: ${code}` : "network error" };
}

/**
 * Sends attempts over HTTPS, every connection through request-filtering-agent: an address that is
 * not public is refused where it is actually connected to, unless WEBHOOK_ALLOWED_CIDRS allows it
 * (docs/decisions.md, "Audit trail and webhooks"). node:https follows no redirect.
 */
export function httpsSender(options: HttpsSenderOptions): Sender {
  const agent = new RequestFilteringHttpsAgent({
    allowIPAddressList: [...options.allowedCidrs],
    // One context for every connection: given `ca` alone, each connection would parse every root CA again.
    ...(options.extraCa
      ? { secureContext: createSecureContext({ ca: [...rootCertificates, options.extraCa] }) }
      : {}),
  });
  return {
    send: (attempt) =>
      new Promise<AttemptResult>((resolve) => {
        let outgoing: ReturnType<typeof request> | undefined;
        let settled = false;
        let answered: AttemptResult | undefined;
        const finish = (result: AttemptResult) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          outgoing?.destroy();
          resolve(result);
        };
        const timer = setTimeout(
          () => finish(answered ?? { status: 0, error: "timeout" }),
          options.timeoutMs,
        );
        try {
          const body = Buffer.from(attempt.payload);
          outgoing = request(
            attempt.url,
            {
              method: "POST",
              agent,
              headers: {
                "content-type": "application/json",
                "content-length": String(body.length),
                "user-agent": userAgent,
                "webhook-id": attempt.eventId,
                "webhook-timestamp": String(Math.floor(attempt.timestamp.getTime() / 1000)),
                "webhook-signature": signatureHeader(attempt),
              },
            },
            (response: IncomingMessage) => {
              answered = resultOfStatus(response.statusCode ?? 0);
              const done = () => finish(answered as AttemptResult);
              let read = 0;
              response.on("data", (chunk: Buffer) => {
                read += chunk.length;
                if (read > bodyLimitBytes) done();
              });
              response.on("end", done);
              response.on("error", done);
              response.on("close", done);
            },
          );
          outgoing.on("error", (error) => finish(answered ?? resultOfError(error)));
          outgoing.end(body);
        } catch (error) {
          finish(resultOfError(error));
        }
      }),
  };
}

/** The sender of the configuration: WEBHOOK_TIMEOUT_MS, WEBHOOK_ALLOWED_CIDRS and WEBHOOK_CA_FILE. */
export function httpsSenderOf(config: {
  WEBHOOK_TIMEOUT_MS: number;
  WEBHOOK_ALLOWED_CIDRS: string[];
  WEBHOOK_CA_FILE?: string | undefined;
}): Sender {
  return httpsSender({
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowedCidrs: config.WEBHOOK_ALLOWED_CIDRS,
    ...(config.WEBHOOK_CA_FILE ? { extraCa: readFileSync(config.WEBHOOK_CA_FILE, "utf8") } : {}),
  });
}
