/**
 * @simplewebauthn/server and its helpers, loaded at the first passkey ceremony and kept: with their
 * certificate libraries (@peculiar/*) they are some 300 modules, which a start of identity does
 * not need (docs/performance.md, "Modules loaded at start").
 */
let loaded:
  | Promise<{
      server: typeof import("@simplewebauthn/server");
      helpers: typeof import("@simplewebauthn/server/helpers");
    }>
  | undefined;

export const simpleWebAuthn = () =>
  (loaded ??= Promise.all([import("@simplewebauthn/server"), import("@simplewebauthn/server/helpers")]).then(
    ([server, helpers]) => ({ server, helpers }),
  ));
