import type { TypeForm } from './form-description.js';

/** The types whose short URL redirects: their destination changes without reprinting. */
export const URL_FORM: TypeForm = {
  type: 'URL',
  label: 'Website (URL)',
  description: 'Leads straight to a web address, which you can change later.',
  fields: [{ kind: 'text', key: 'url', label: 'Destination URL', input: 'url', required: true }],
};

export const FACEBOOK_FORM: TypeForm = {
  type: 'FACEBOOK',
  label: 'Facebook page',
  description: 'Leads straight to a Facebook page.',
  fields: [
    { kind: 'text', key: 'pageUrl', label: 'Facebook page URL', input: 'url', required: true, hint: 'An address on facebook.com, such as https://www.facebook.com/yourpage.' },
  ],
};

export const APP_FORM: TypeForm = {
  type: 'APP',
  label: 'App download',
  description: 'Sends iPhones to the App Store, Android phones to Google Play, and everyone else to a web page.',
  fields: [
    { kind: 'text', key: 'appStoreUrl', label: 'App Store URL', input: 'url', hint: 'An address on apps.apple.com. Leave empty if the app is not on iPhone.' },
    { kind: 'text', key: 'googlePlayUrl', label: 'Google Play URL', input: 'url', hint: 'An address on play.google.com. Leave empty if the app is not on Android.' },
    { kind: 'text', key: 'fallbackUrl', label: 'Fallback URL', input: 'url', required: true, hint: 'Where computers and other phones go, such as the app’s website.' },
  ],
  sentences: { 'must be a App Store address': 'App Store URL must be an address on apps.apple.com.' },
};
