export { clientAddressKey } from "./address-prefix.js";
export { ConfigError, env, loadConfig, parseConfig } from "./config.js";
export { hasControlCharacter, pathOfString } from "./control-characters.js";
export {
  companyCodeShape,
  deviceIdOf,
  deviceIdShape,
  minPasswordLengthFloor,
  minPasswordLengthOf,
  passwordLength,
} from "./identity-shapes.js";
export { boundPort, listenOrExit, reportListening } from "./listening.js";
export { createLogger, type Logger } from "./logger.js";
export { JsonLinesOutbox } from "./outbox.js";
export { freePort, freePorts, whyNotListenable } from "./ports.js";
export { SecretBox, secretsKeyOf } from "./secret-box.js";
export { stopOnSignals } from "./shutdown.js";
export {
  type ConnectRetry,
  connectWithRetry,
  type StoreConnection,
} from "./store-connect.js";
export { TtlCache } from "./ttl-cache.js";
