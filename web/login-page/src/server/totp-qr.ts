import type { RequestHandler } from "express";
import QRCode from "qrcode";

/**
 * The QR code of an authenticator app's otpauth URI, as SVG, for the signed-in view's "Set up
 * authenticator app" (docs/api-contract.md, "Authenticator app"). The URI holds the secret: it comes
 * in a POST body, never in an address that a log or a Referer could keep, and nothing of it is logged.
 */
export const totpQr: RequestHandler = async (request, response) => {
  const uri: unknown = request.body?.uri;
  if (typeof uri !== "string" || !uri.startsWith("otpauth://totp/") || uri.length > 1_024) {
    response.status(400).json({ status: "error", error_code: "request.validation.failed" });
    return;
  }
  response.type("image/svg+xml").send(await QRCode.toString(uri, { type: "svg", margin: 2 }));
};
