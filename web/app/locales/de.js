/** The pages' words in de (web/app/i18n.js). Keys are the same in every locale. */
export const messages = {
  linkEnded: 'Dieser Fotobuch-Link ist nicht mehr gültig.',
};
