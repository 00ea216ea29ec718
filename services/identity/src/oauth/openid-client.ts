/**
 * openid-client (with jose and oauth4webapi), loaded at the first code exchange and kept: a start
 * of identity does not need it (docs/performance.md, "Modules loaded at start").
 */
let loaded: Promise<typeof import("openid-client")> | undefined;

export const openidClient = () => (loaded ??= import("openid-client"));
