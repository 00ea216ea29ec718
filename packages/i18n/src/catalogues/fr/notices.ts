import type { Messages } from "../../catalogue.js";

export const notices = {
  "password_changed.subject": "Le mot de passe de votre compte {company} a été modifié",
  "password_changed.body":
    "Le mot de passe de votre compte {company} a été modifié le {time, date, long} à {time, time, ::jmmz}.\n\nSi ce n’était pas vous, lancez la récupération de l’accès sur la page de connexion {company} ou contactez votre administrateur.",
  "password_changed.sms":
    "{company} : votre mot de passe a été modifié le {time, date, ::ddMMyyyy} à {time, time, ::jmmz}. Ce n'était pas vous ? Lancez la récupération de l'accès ou contactez votre administrateur.",
  "recovery_started.subject": "Une récupération de l’accès à votre compte {company} a commencé",
  "recovery_started.body":
    "Une récupération de l’accès à votre compte {company} a commencé le {time, date, long} à {time, time, ::jmmz}.\n\nSi ce n’était pas vous, votre mot de passe reste inchangé tant que la récupération n’est pas terminée\u202f; contactez votre administrateur.",
  "recovery_started.sms":
    "{company} : une récupération de l'accès à votre compte a commencé le {time, date, ::ddMMyyyy} à {time, time, ::jmmz}. Ce n'était pas vous ? Contactez votre administrateur.",
  "recovery_completed.subject": "L’accès à votre compte {company} a été récupéré",
  "recovery_completed.body":
    "L’accès à votre compte {company} a été récupéré le {time, date, long} à {time, time, ::jmmz}\u00a0: un nouveau mot de passe a été défini et toutes les sessions du compte ont pris fin.\n\nSi ce n’était pas vous, contactez immédiatement votre administrateur.",
  "recovery_completed.sms":
    "{company} : l'accès à votre compte a été récupéré le {time, date, ::ddMMyyyy} à {time, time, ::jmmz} avec un nouveau mot de passe. Ce n'était pas vous ? Contactez immédiatement votre administrateur.",
  "backup_codes_issued.subject": "Nouveaux codes de secours pour votre compte {company}",
  "backup_codes_issued.body":
    "De nouveaux codes de secours ont été émis pour votre compte {company} le {time, date, long} à {time, time, ::jmmz}\u202f; les codes émis auparavant ne fonctionnent plus.\n\nSi ce n’était pas vous, lancez la récupération de l’accès sur la page de connexion {company} ou contactez votre administrateur.",
  "backup_codes_issued.sms":
    "{company} : de nouveaux codes de secours ont été émis pour votre compte le {time, date, ::ddMMyyyy} à {time, time, ::jmmz}. Ce n'était pas vous ? Contactez votre administrateur.",
  "locked_out.subject": "Votre compte {company} est verrouillé",
  "locked_out.body":
    "Votre compte {company} a été verrouillé le {time, date, long} à {time, time, ::jmmz} après trop de tentatives de connexion échouées. Il se déverrouille de lui-même après un moment\u202f; après de très nombreuses tentatives échouées d’affilée, seulement lorsque vous récupérez l’accès.\n\nSi ce n’était pas vous, lancez la récupération de l’accès sur la page de connexion {company} ou contactez votre administrateur.",
  "locked_out.sms":
    "{company} : votre compte a été verrouillé le {time, date, ::ddMMyyyy} à {time, time, ::jmmz} après des tentatives de connexion échouées. Ce n'était pas vous ? Lancez la récupération de l'accès ou contactez votre administrateur.",
  "authenticator_app_added.subject":
    "Une application d’authentification a été configurée pour votre compte {company}",
  "authenticator_app_added.body":
    "Une application d’authentification est devenue le second facteur de votre compte {company} le {time, date, long} à {time, time, ::jmmz}\u202f; les connexions demandent désormais son code au lieu d’un code par SMS.\n\nSi ce n’était pas vous, contactez immédiatement votre administrateur, qui peut supprimer l’application.",
  "authenticator_app_added.sms":
    "{company} : une application d'authentification a été configurée pour votre compte le {time, date, ::ddMMyyyy} à {time, time, ::jmmz}. Ce n'était pas vous ? Contactez immédiatement votre administrateur.",
  "authenticator_app_removed.subject":
    "L’application d’authentification de votre compte {company} a été supprimée",
  "authenticator_app_removed.body":
    "Votre administrateur a supprimé l’application d’authentification de votre compte {company} le {time, date, long} à {time, time, ::jmmz}, et toutes les sessions du compte ont pris fin.\n\nSi ce n’était pas vous, lancez la récupération de l’accès sur la page de connexion {company} ou contactez votre administrateur.",
  "authenticator_app_removed.sms":
    "{company} : l'application d'authentification de votre compte a été supprimée le {time, date, ::ddMMyyyy} à {time, time, ::jmmz}. Ce n'était pas vous ? Contactez votre administrateur.",
  "passkey_added.subject": "Une clé d’accès a été ajoutée à votre compte {company}",
  "passkey_added.body":
    "Une clé d’accès a été ajoutée à votre compte {company} le {time, date, long} à {time, time, ::jmmz}\u202f; elle permet désormais de se connecter.\n\nSi ce n’était pas vous, contactez immédiatement votre administrateur, qui peut supprimer la clé d’accès.",
  "passkey_added.sms":
    "{company} : une clé d'accès a été ajoutée à votre compte le {time, date, ::ddMMyyyy} à {time, time, ::jmmz}. Ce n'était pas vous ? Contactez immédiatement votre administrateur.",
  "passkey_renamed.subject": "Une clé d’accès de votre compte {company} a été renommée",
  "passkey_renamed.body":
    "L’une des clés d’accès de votre compte {company} a été renommée le {time, date, long} à {time, time, ::jmmz}.\n\nSi ce n’était pas vous, lancez la récupération de l’accès sur la page de connexion {company} ou contactez votre administrateur.",
  "passkey_renamed.sms":
    "{company} : une clé d'accès de votre compte a été renommée le {time, date, ::ddMMyyyy} à {time, time, ::jmmz}. Ce n'était pas vous ? Contactez votre administrateur.",
  "passkey_removed.subject": "Une clé d’accès a été supprimée de votre compte {company}",
  "passkey_removed.body":
    "Une clé d’accès a été supprimée de votre compte {company} le {time, date, long} à {time, time, ::jmmz}\u202f; elle ne permet plus de se connecter.\n\nSi ce n’était pas vous, lancez la récupération de l’accès sur la page de connexion {company} ou contactez votre administrateur.",
  "passkey_removed.sms":
    "{company} : une clé d'accès a été supprimée de votre compte le {time, date, ::ddMMyyyy} à {time, time, ::jmmz}. Ce n'était pas vous ? Contactez votre administrateur.",
  "passkey_clone_suspected.subject": "Une clé d’accès de votre compte {company} a peut-être été copiée",
  "passkey_clone_suspected.body":
    "Le {time, date, long} à {time, time, ::jmmz}, une clé d’accès de votre compte {company} s’est connectée avec un compteur qui n’avait pas augmenté, ce qui arrive avec une clé copiée. Cette clé d’accès est désormais refusée\u202f; connectez-vous autrement et demandez à votre administrateur de la supprimer.\n\nSi vous n’avez pas tenté de vous connecter à ce moment-là, contactez immédiatement votre administrateur.",
  "passkey_clone_suspected.sms":
    "{company} : une clé d'accès de votre compte semble avoir été copiée ({time, date, ::ddMMyyyy}, {time, time, ::jmmz}) et est désormais refusée. Contactez votre administrateur.",
  "phone_changed.subject": "Le numéro de téléphone de votre compte {company} a été modifié",
  "phone_changed.body":
    "Le numéro de téléphone de votre compte {company} a été modifié le {time, date, long} à {time, time, ::jmmz} ; les codes et les messages de récupération sont désormais envoyés au nouveau numéro.\n\nSi ce n’était pas vous, lancez la récupération d’accès sur la page de connexion de {company} ou contactez immédiatement votre administrateur.",
  "phone_changed.sms":
    "{company} : le numéro de téléphone de votre compte a été modifié le {time, date, ::ddMMyyyy} à {time, time, ::jmmz} ; ce numéro ne recevra plus de codes. Ce n'était pas vous ? Contactez immédiatement votre administrateur.",
  "email_changed.subject": "L’adresse e-mail de votre compte {company} a été modifiée",
  "email_changed.body":
    "L’adresse e-mail de votre compte {company} a été modifiée le {time, date, long} à {time, time, ::jmmz} ; les messages concernant votre compte sont désormais envoyés à la nouvelle adresse, et non plus à celle-ci.\n\nSi ce n’était pas vous, contactez immédiatement votre administrateur.",
  "email_changed.sms":
    "{company} : l'adresse e-mail de votre compte a été modifiée le {time, date, ::ddMMyyyy} à {time, time, ::jmmz}. Ce n'était pas vous ? Contactez immédiatement votre administrateur.",
  "new_device.subject": "Nouvelle connexion à votre compte {company}",
  "new_device.body":
    "Une connexion à votre compte {company} a eu lieu depuis {device} le {time, date, long} à {time, time, ::jmmz}, un appareil ou un réseau depuis lequel il n’avait pas été utilisé récemment.\n\nSi c’était vous, il n’y a rien à faire. Sinon, mettez fin à cette session dans la liste de vos sessions sur la page de connexion de {company}, changez votre mot de passe et contactez votre administrateur.",
  "new_device.sms":
    "{company} : nouvelle connexion depuis {device} le {time, date, ::ddMMyyyy} à {time, time, ::jmmz}. Ce n'était pas vous ? Mettez fin à la session, changez votre mot de passe et contactez votre administrateur.",
} satisfies Messages<"notices">;
