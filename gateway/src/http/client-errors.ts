import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { type ErrorCode, errorCodes } from "@auth/errors";
import { sourceLanguage } from "@auth/i18n";
import type { Logger } from "@auth/runtime";
import { errorMessage } from "./error-message.js";

const reasons: Record<number, string> = {
  400: "Bad Request",
  405: "Method Not Allowed",
  431: "Request Header Fields Too Large",
};

/**
 * A whole HTTP response with the envelope, for requests node's parser refused before express saw
 * them: in English, as nothing of the request can be read.
 */
function rawEnvelope(status: number, code: ErrorCode): string {
  const body = JSON.stringify({
    status: "error",
    error_code: code,
    error_message: errorMessage(code, sourceLanguage),
  });
  return [
    `HTTP/1.1 ${status} ${reasons[status] ?? "Error"}`,
    "Content-Type: application/json; charset=utf-8",
    "Cache-Control: no-store",
    "X-Content-Type-Options: nosniff",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

function answer(socket: Duplex, status: number, code: ErrorCode): void {
  if (socket.writable) socket.end(rawEnvelope(status, code));
  else socket.destroy();
}

/**
 * Requests that never reach express still get the envelope: malformed HTTP (bad header
 * characters, oversized headers, broken framing) and CONNECT, which node hands to its own event.
 */
export function answerUnparsableRequests(server: Server, logger: Logger): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    logger.debug({ code: error.code }, "unparsable request");
    if (error.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
    answer(
      socket,
      tooLarge ? 431 : errorCodes["request.validation.failed"].http,
      "request.validation.failed",
    );
  });
  server.on("connect", (_request, socket: Duplex) => answer(socket, 405, "request.method.notallowed"));
}
