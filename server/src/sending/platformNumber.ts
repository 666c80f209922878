/** The simulator's id for the platform's own sender number (password-reset codes): sending and the platform's messages both name it. */
export const PLATFORM_PHONE_NUMBER_ID = 'platform';
