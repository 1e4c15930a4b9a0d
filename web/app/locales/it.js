/** The pages' words in it (web/app/i18n.js). Keys are the same in every locale. */
export const messages = {
  linkEnded: 'Questo link del fotolibro non è più valido.',
};
