import { EMAIL_KINDS, PHONE_KINDS, SOCIAL_NETWORKS } from '../../../codes/types/index.js';
import { ADDRESS_TWICE, NAME_REQUIRED } from '../../../codes/types/contact-fields.js';
import type { FormField, TypeForm } from './form-description.js';

const KIND_LABELS = { mobile: 'Mobile', work: 'Work', home: 'Home' } as const;

/** The card's fields, each filed into its own part of the vCard (src/landing/vcard.ts). */
const CONTACT_FIELDS: readonly FormField[] = [
  { kind: 'text', key: 'givenName', label: 'Given name', hint: 'First name, such as Anna.' },
  { kind: 'text', key: 'familyName', label: 'Family name', hint: 'Last name, such as Müller-O’Brien: phones sort contacts by it.' },
  { kind: 'text', key: 'name', label: 'Name as shown', hint: 'Only if it is more than given and family name, such as Dr. Anna Müller-O’Brien.' },
  { kind: 'text', key: 'title', label: 'Job title' },
  { kind: 'text', key: 'company', label: 'Organisation' },
  {
    kind: 'rows',
    key: 'phones',
    label: 'Phone numbers',
    itemLabel: 'Phone',
    max: 5,
    columns: [
      { kind: 'text', key: 'number', label: 'Number', input: 'tel' },
      { kind: 'select', key: 'kind', label: 'Type', options: PHONE_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] })) },
    ],
  },
  {
    kind: 'rows',
    key: 'emails',
    label: 'Email addresses',
    itemLabel: 'Email',
    max: 5,
    columns: [
      { kind: 'text', key: 'address', label: 'Address', input: 'email' },
      { kind: 'select', key: 'kind', label: 'Type', options: EMAIL_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] })) },
    ],
  },
  { kind: 'text', key: 'website', label: 'Website', input: 'url' },
  { kind: 'text', key: 'street', label: 'Street and number', multiline: true, hint: 'The address goes into the card in parts, so a phone can show it on a map.' },
  { kind: 'text', key: 'postcode', label: 'Postcode' },
  { kind: 'text', key: 'city', label: 'City' },
  { kind: 'text', key: 'region', label: 'State or region' },
  { kind: 'text', key: 'country', label: 'Country' },
  { kind: 'text', key: 'note', label: 'Note', multiline: true },
  { kind: 'file', key: 'photoFileId', label: 'Photo', fileKind: 'image', accept: 'image/png,image/jpeg,image/webp', hint: 'PNG, JPEG or WebP.' },
];

const CONTACT_SENTENCES = {
  [NAME_REQUIRED]: 'Give a given name, a family name or both.',
  [ADDRESS_TWICE]: 'Give the address in its parts (street, postcode, city…), not also as one text.',
};

export const VCARD_PLUS_FORM: TypeForm = {
  type: 'VCARD_PLUS',
  label: 'Contact page',
  description: 'A page with contact details and a button that saves them to the phone.',
  fields: CONTACT_FIELDS,
  sentences: CONTACT_SENTENCES,
};

export const CONTACT_FORM: TypeForm = {
  type: 'CONTACT',
  label: 'Contact file (vCard)',
  description: 'Saves contact details to the phone straight away, without a page.',
  fields: CONTACT_FIELDS,
  sentences: CONTACT_SENTENCES,
};

export const BUSINESS_FORM: TypeForm = {
  type: 'BUSINESS',
  label: 'Business page',
  description: 'Opening hours, address and ways to get in touch.',
  fields: [
    { kind: 'text', key: 'name', label: 'Business name', required: true },
    { kind: 'text', key: 'description', label: 'Description', multiline: true },
    { kind: 'hours', key: 'openingHours', label: 'Opening hours', max: 4, hint: 'Times like 09:00. A day left empty is shown as closed; a second interval allows a lunch break.' },
    { kind: 'text', key: 'address', label: 'Address', multiline: true },
    { kind: 'text', key: 'phone', label: 'Phone', input: 'tel' },
    { kind: 'text', key: 'email', label: 'Email', input: 'email' },
    { kind: 'text', key: 'website', label: 'Website', input: 'url' },
  ],
};

const NETWORK_LABELS: Record<(typeof SOCIAL_NETWORKS)[number], string> = {
  facebook: 'Facebook', instagram: 'Instagram', x: 'X (Twitter)', linkedin: 'LinkedIn', youtube: 'YouTube', tiktok: 'TikTok',
  pinterest: 'Pinterest', snapchat: 'Snapchat', whatsapp: 'WhatsApp', telegram: 'Telegram', threads: 'Threads',
  mastodon: 'Mastodon', bluesky: 'Bluesky', github: 'GitHub', other: 'Other',
};

export const SOCIAL_MEDIA_FORM: TypeForm = {
  type: 'SOCIAL_MEDIA',
  label: 'Social media links',
  description: 'A page listing links to your profiles.',
  fields: [
    { kind: 'text', key: 'title', label: 'Title' },
    {
      kind: 'rows',
      key: 'links',
      label: 'Profiles',
      itemLabel: 'Profile',
      min: 1,
      max: 20,
      columns: [
        { kind: 'select', key: 'network', label: 'Network', options: SOCIAL_NETWORKS.map((n) => ({ value: n, label: NETWORK_LABELS[n] })) },
        { kind: 'text', key: 'url', label: 'Profile URL', input: 'url' },
      ],
    },
  ],
};

export const COUPON_FORM: TypeForm = {
  type: 'COUPON',
  label: 'Coupon',
  description: 'An offer with a code to show at the till and an expiry date.',
  fields: [
    { kind: 'text', key: 'title', label: 'Offer', required: true, hint: 'For example: 10% off all bread.' },
    { kind: 'text', key: 'description', label: 'Description', multiline: true },
    { kind: 'text', key: 'code', label: 'Coupon code' },
    { kind: 'text', key: 'expiresAt', label: 'Expires', input: 'datetime', hint: 'After this, the page says the offer has expired.' },
    { kind: 'text', key: 'timezone', label: 'Time zone', input: 'time-zone', hint: 'The zone the expiry is in, such as Europe/Berlin; a new coupon starts with your browser’s. Empty means UTC.' },
    { kind: 'text', key: 'terms', label: 'Terms', multiline: true },
  ],
};

export const EVENT_FORM: TypeForm = {
  type: 'EVENT',
  label: 'Event',
  description: 'When and where, with a button that adds it to the calendar.',
  fields: [
    { kind: 'text', key: 'title', label: 'Event name', required: true },
    { kind: 'text', key: 'start', label: 'Starts', input: 'datetime', required: true },
    { kind: 'text', key: 'end', label: 'Ends', input: 'datetime' },
    { kind: 'text', key: 'timezone', label: 'Time zone', input: 'time-zone', hint: 'The zone the times are in, such as Europe/Berlin; a new event starts with your browser’s. Empty means UTC.' },
    { kind: 'text', key: 'location', label: 'Location', multiline: true },
    { kind: 'text', key: 'description', label: 'Description', multiline: true },
    { kind: 'text', key: 'url', label: 'Event website', input: 'url' },
  ],
};

export const TEXT_FORM: TypeForm = {
  type: 'TEXT',
  label: 'Plain text',
  description: 'Shows a short text, up to 5,000 characters.',
  fields: [{ kind: 'text', key: 'text', label: 'Text', multiline: true, required: true }],
};

export const EMAIL_FORM: TypeForm = {
  type: 'EMAIL',
  label: 'Email',
  description: 'Opens a new email to you, with the subject and text filled in.',
  fields: [
    { kind: 'text', key: 'to', label: 'To (email address)', input: 'email', required: true },
    { kind: 'text', key: 'subject', label: 'Subject' },
    { kind: 'text', key: 'body', label: 'Message', multiline: true },
  ],
};

export const SMS_FORM: TypeForm = {
  type: 'SMS',
  label: 'Text message (SMS)',
  description: 'Opens a new text message to your number, with the text filled in.',
  fields: [
    { kind: 'text', key: 'phone', label: 'Phone number', input: 'tel', required: true },
    { kind: 'text', key: 'message', label: 'Message', multiline: true },
  ],
};

export const WIFI_FORM: TypeForm = {
  type: 'WIFI',
  label: 'Wi-Fi network',
  description: 'Shows the network name and password, and how to join.',
  fields: [
    { kind: 'text', key: 'ssid', label: 'Network name (SSID)', required: true, untrimmed: true },
    {
      kind: 'select',
      key: 'security',
      label: 'Security',
      required: true,
      options: [
        { value: 'WPA', label: 'WPA, WPA2 or WPA3 (most networks)' },
        { value: 'WEP', label: 'WEP (old networks)' },
        { value: 'none', label: 'None (open network)' },
      ],
    },
    { kind: 'text', key: 'password', label: 'Password', untrimmed: true, hint: 'Leave empty for an open network.' },
    { kind: 'checkbox', key: 'hidden', label: 'Hidden network', hint: 'Tick if the network does not announce its name.' },
    {
      kind: 'either',
      key: 'direct',
      label: 'What the QR code holds',
      options: [
        {
          label: 'A page with the network name and password (dynamic)',
          hint: 'You can change the network or password later without reprinting, pause the code, and scans are counted. Guests open the page and type the password.',
        },
        {
          label: 'Join directly (the network is in the code; it cannot be changed after printing)',
          hint: 'Phone cameras offer "Join network" at once. The printed code holds the name and password themselves: a change means printing it again, pausing does not stop it, and its scans are not counted.',
        },
      ],
    },
  ],
};
