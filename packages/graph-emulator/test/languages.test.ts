import request from 'supertest';
import { IntlMessageFormat } from 'intl-messageformat';
import { DIALOG_LANGUAGES } from '../src/i18n/speech';
import en from '../src/i18n/catalogs/en.json';
import { makeEmulator, openDialog, USERS } from './helpers';
import { attr, find, inputsNamed, textNodes } from './dom';

/** The dialog and settings in the person's language, as the provider shows them (README, "Languages"). */
describe('the emulator in the person’s language', () => {
  it.each(DIALOG_LANGUAGES.map((l) => [l.tag, l.catalog] as const))(
    'when the %s catalog is read, then it has English’s keys, each with English’s arguments and tags',
    (tag, catalog) => {
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort());
      const names = (message: string) =>
        [...JSON.stringify(new IntlMessageFormat(message, tag).getAst()).matchAll(/"value":"([A-Za-z]+)"/g)]
          .map((m) => m[1])
          .filter((name) => /\{|</.test(message) && (message.includes(`{${name}`) || message.includes(`<${name}>`)))
          .sort();
      for (const [key, source] of Object.entries(en)) {
        const theirs = (catalog as Record<string, string>)[key]!;
        expect([key, [...new Set(names(theirs))]]).toEqual([key, [...new Set(names(source))]]);
      }
    },
  );

  it.each([
    ['locale=de_DE', { locale: 'de_DE' }, {}, 'de', 'möchte auf deine Facebook-Seiten zugreifen'],
    ['locale=es_LA', { locale: 'es_LA' }, {}, 'es', 'quiere acceder a tus páginas de Facebook'],
    ['locale=pt_PT', { locale: 'pt_PT' }, {}, 'pt-BR', 'quer acessar suas Páginas do Facebook'],
    ['locale=ar_AR over a Japanese browser', { locale: 'ar_AR' }, { 'Accept-Language': 'ja' }, 'ar', 'يريد'],
    ['a Japanese browser', {}, { 'Accept-Language': 'ja-JP,ja;q=0.9' }, 'ja', 'へのアクセスをリクエストしています'],
    [
      'an unknown locale and language',
      { locale: 'xx_XX' },
      { 'Accept-Language': 'tlh' },
      'en',
      'wants to access your Facebook Pages',
    ],
  ])(
    'when the dialog is opened with %s, then it is in that language and says so',
    async (_what, params, headers, tag, words) => {
      const { app } = makeEmulator();
      let req = openDialog(app, params as Record<string, string>);
      for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
      const res = await req.expect(200);
      expect(res.headers['content-language']).toBe(tag);
      expect(res.headers.vary).toMatch(/Accept-Language/);
      const html = find(res.text, 'html')!;
      expect([attr(html, 'lang'), attr(html, 'dir')]).toEqual([tag, tag === 'ar' ? 'rtl' : 'ltr']);
      expect(res.text).toContain(words);
    },
  );

  it('when the dialog was opened with a locale, then its answer keeps it: an error after it reads in the same language', async () => {
    const { app } = makeEmulator();
    const page = await openDialog(app, { locale: 'fr_FR' } as Record<string, string>).expect(200);
    expect(inputsNamed(page.text, 'locale')).toEqual([{ type: 'hidden', name: 'locale', value: 'fr_FR' }]);
    const res = await request(app)
      .post('/v23.0/dialog/oauth/decision')
      .type('form')
      .send({ request_id: 'gone', decision: 'continue', locale: 'fr_FR' })
      .expect(400);
    expect(res.text).toContain('Demande de connexion expirée');
  });

  it.each(DIALOG_LANGUAGES.filter((l) => l.tag !== 'en').map((l) => [l.tag]))(
    'when the dialog, the settings and an error are shown in %s, then no sentence of the English pages is left',
    async (tag) => {
      const { app } = makeEmulator();
      const pages = async (language: string) =>
        [
          (await openDialog(app).set('Accept-Language', language).expect(200)).text,
          (await request(app).get(`/settings/apps?user=${USERS.ada}`).set('Accept-Language', language).expect(200))
            .text,
          (await request(app).get('/settings/apps').set('Accept-Language', language).expect(200)).text,
          (await openDialog(app, { client_id: '0' }).set('Accept-Language', language).expect(400)).text,
        ].join('\n');
      const english = await pages('en');
      const theirs = await pages(tag);
      // Every sentence of ours in English (text between tags, longer than a name or an identifier).
      const sentences = textNodes(english)
        .map((t) => t.text)
        .filter((s) => s.length >= 12 && / \w+ /.test(s));
      // Names of people, apps and Pages are the provider's content, isolated in the page (dir="auto", bdi).
      const names = new Set(
        textNodes(english)
          .filter(({ parent }) => parent.nodeName === 'bdi' || attr(parent, 'dir') === 'auto')
          .map((t) => t.text),
      );
      const theirTexts = new Set(textNodes(theirs).map((t) => t.text));
      const left = sentences.filter((s) => theirTexts.has(s) && !names.has(s));
      expect(left).toEqual([]);
    },
  );
});
