/** The pages' words in es (web/app/i18n.js). Keys are the same in every locale. */
export const messages = {
  linkEnded: 'Este enlace del fotolibro ya no es válido.',
};
