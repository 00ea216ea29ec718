export {
  type DetailField,
  type EventDetail,
  type EventSource,
  type EventType,
  eventCatalogue,
} from "./catalogue.js";
export {
  type EventFacts,
  type EventOrigin,
  eventFromJson,
  eventJson,
  newEvent,
  orderKeyOf,
  systemOrigin,
} from "./event.js";
