import { createHash } from 'node:crypto';

/**
 * The landing pages' only script: a button `data-copy="<id>"` copies that element's text (the coupon's code).
 * Inline and allowed by its hash, like the stylesheet, so a page still costs one request. The button is `hidden`
 * in the markup and shown here, so a phone without JavaScript shows no dead button (the code can still be
 * pressed and held to copy). Where the clipboard is refused (an http page, an old in-app browser), the code is
 * selected instead, ready for the phone's own Copy.
 */
export const COPY_SCRIPT =
  "document.querySelectorAll('[data-copy]').forEach(function(b){var s=document.getElementById(b.getAttribute('data-copy')),l=b.textContent;" +
  "if(!s)return;b.hidden=false;b.addEventListener('click',function(){" +
  "function say(t){b.textContent=t;setTimeout(function(){b.textContent=l},2500)}" +
  "function pick(){var r=document.createRange();r.selectNodeContents(s);var w=getSelection();w.removeAllRanges();w.addRange(r);say('Selected: tap Copy')}" +
  "if(navigator.clipboard)navigator.clipboard.writeText(s.textContent).then(function(){say('Copied')},pick);else pick()})})";

export const COPY_SCRIPT_HASH = `sha256-${createHash('sha256').update(COPY_SCRIPT).digest('base64')}`;
