import type { RequestHandler } from "express";

/**
 * Request headers the gateway reads (the User-Agent for the user's list of sessions, the
 * Accept-Language for the language of an SMS or e-mail, the X-Device-Id for the user's known
 * devices); anything else the browser sends stays here.
 */
const forwardedRequestHeaders = [
  "content-type",
  "x-api-key",
  "authorization",
  "user-agent",
  "accept-language",
  "x-device-id",
];
/**
 * Answer headers the page reads (Retry-After on 429 and auth.restricted) or must keep (no caching,
 * or the brand's short caching).
 */
const forwardedAnswerHeaders = ["content-type", "retry-after", "cache-control"];

/**
 * Passes the page's calls (POST, and GET of the brand) to the gateway, so that the page calls its own origin and the gateway
 * needs no CORS. The client's address goes along in X-Forwarded-For (the gateway's rate limits count
 * by it); an X-Forwarded-For the browser sent is not passed on, so it cannot choose its address.
 */
export function gatewayProxy(gatewayUrl: string): RequestHandler {
  return async (request, response) => {
    const headers: Record<string, string> = { "x-forwarded-for": request.socket.remoteAddress ?? "" };
    for (const name of forwardedRequestHeaders) {
      const value = request.get(name);
      if (value !== undefined) headers[name] = value;
    }
    try {
      // Joined as text, so that no path (say `//elsewhere/...`) can point the call at another host.
      const answer = await fetch(`${gatewayUrl.replace(/\/$/, "")}${request.originalUrl}`, {
        method: request.method,
        headers,
        ...(request.method === "POST" ? { body: request, duplex: "half" } : {}),
        signal: AbortSignal.timeout(30_000),
      });
      const body = Buffer.from(await answer.arrayBuffer());
      response.status(answer.status);
      for (const name of forwardedAnswerHeaders) {
        const value = answer.headers.get(name);
        if (value !== null) response.setHeader(name, value);
      }
      response.end(body);
    } catch {
      response.status(503).json({ status: "error", error_code: "service.unavailable" });
    }
  };
}
