// Content script part: the page's side of solve_captcha. wb_captcha finds
// the CAPTCHA widget and its site key (it only reads); wb_captcha_apply
// puts the token the user's solver service returned into the widget's
// response field, as the widget does when a person solves it.
import { doc, fail, fire } from './core.mjs';
import { setNativeValue } from './typing.mjs';

// Where each widget keeps its answer for the form.
const RESPONSE = { recaptcha_v2: 'g-recaptcha-response', turnstile: 'cf-turnstile-response' };

const keyFromFrame = (sel) => {
  const f = doc.querySelector(sel);
  if (!f) return '';
  try {
    return new URL(f.src).searchParams.get('k') || new URL(f.src).searchParams.get('sitekey') || '';
  } catch {
    return '';
  }
};

export function findCaptcha() {
  const url = location.href;
  const rc = doc.querySelector('.g-recaptcha[data-sitekey]');
  if (rc) return { kind: 'recaptcha_v2', siteKey: rc.getAttribute('data-sitekey'), url };
  const rcKey = keyFromFrame('iframe[src*="/recaptcha/api2/anchor"], iframe[src*="/recaptcha/enterprise/anchor"]');
  if (rcKey) return { kind: 'recaptcha_v2', siteKey: rcKey, url };
  const ts = doc.querySelector('.cf-turnstile[data-sitekey]');
  if (ts) return { kind: 'turnstile', siteKey: ts.getAttribute('data-sitekey'), url };
  const hc = doc.querySelector('.h-captcha[data-sitekey]');
  if (hc) return { kind: 'hcaptcha', siteKey: hc.getAttribute('data-sitekey'), url };
  return { kind: '', siteKey: '', url };
}

export function applyCaptcha(args) {
  const name = Object.hasOwn(RESPONSE, args.kind) ? RESPONSE[args.kind] : '';
  if (!name) fail(`There is no response field for a ${JSON.stringify(args.kind)} CAPTCHA.`);
  const fields = [...doc.querySelectorAll(`textarea[name="${name}"], input[name="${name}"]`)];
  if (!fields.length) fail(`The page has no ${name} field for the solver's answer; the widget may not have loaded.`);
  for (const f of fields) {
    setNativeValue(f, String(args.token));
    fire(f, 'input');
    fire(f, 'change');
  }
  return { fields: fields.length };
}
