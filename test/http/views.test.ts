import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ejs from 'ejs';
import express from 'express';
import request from 'supertest';
import { KeptHtml, RenderedHtml } from '../../src/html';
import { escapeOutput, renderSpliced, templateOptions, useViews } from '../../src/http/views';
import { find, findAll, images, textOf } from '../support/dom';
import { headline, visibleText } from '../support/words';

/** The views' settings (src/http/views.ts): includes are found without a look at the disk per render. */
describe('useViews', () => {
  it('when a view with includes is rendered with the view cache on, then no file is looked for on disk', async () => {
    const app = express();
    useViews(app);
    app.set('view cache', true);
    const locals = { connected: false, flash: undefined, csrf: () => '', title: 'Cancelled', userName: undefined };
    const render = () =>
      new Promise<string>((resolve, reject) =>
        app.render('cancelled', locals, (err: Error | null, html?: string) =>
          err ? reject(err) : resolve(html ?? ''),
        ),
      );
    const first = await render();
    expect(headline(first)).not.toBe('');
    const exists = jest.spyOn(fs, 'existsSync');
    const stat = jest.spyOn(fs, 'statSync');
    try {
      expect(await render()).toBe(first);
      expect(exists).not.toHaveBeenCalled();
      expect(stat).not.toHaveBeenCalled();
    } finally {
      exists.mockRestore();
      stat.mockRestore();
    }
  });

  it('when a view prints a value with <%= %>, then a string is escaped and only RenderedHtml is printed as it is', async () => {
    const text = '<script>x</script> & "q"';
    expect(textOf(escapeOutput(text))).toBe(text);
    expect(findAll(escapeOutput(text), 'script')).toEqual([]);
    expect(escapeOutput(undefined)).toBe('');
    const fragment = '<li class="post">ok</li>';
    expect(escapeOutput(new RenderedHtml(fragment))).toBe(fragment);

    // The page view prints its fragments with <%= %>: text passed where a fragment was meant stays text.
    const app = express();
    useViews(app);
    const page = { id: '1', name: 'Bakery', missing: undefined };
    const img = '<img src=x onerror=alert(1)>';
    const html = await new Promise<string>((resolve, reject) =>
      app.render(
        'page',
        {
          connected: false,
          flash: undefined,
          csrf: () => '',
          userName: undefined,
          pagePinned: false,
          title: 'Bakery',
          page,
          card: img,
          about: new RenderedHtml('<section class="about">fine</section>'),
          posts: undefined,
          live: false,
          liveSince: 0,
        },
        (err: Error | null, out?: string) => (err ? reject(err) : resolve(out ?? '')),
      ),
    );
    expect(visibleText(html)).toContain(img);
    expect(images(html)).toEqual([]);
    expect(textOf(find(html, { tag: 'section', class: 'about' })!)).toBe('fine');
  });

  it('when a page printing kept parts is sent with renderSpliced, then its bytes are those of the same page rendered whole', async () => {
    const app = express();
    useViews(app);
    app.set('view cache', true);
    // Two-byte text in the frame and in the parts (an emoji, Arabic), and a name with what could pass for markup.
    const locals = {
      connected: true,
      flash: undefined,
      csrf: () => 'token',
      userName: '<\u0000> Ada 🍞',
      pagePinned: false,
      title: 'مخبز <\u0000>',
      page: { id: '1', name: 'Bakery', missing: undefined },
      card: new KeptHtml('<header class="card">مخبز 🥐</header>'),
      about: new KeptHtml('<section class="about">fine – ok</section>'),
      posts: new RenderedHtml('<ol class="posts"><li>☕</li></ol>'),
      live: false,
      liveSince: 0,
    };
    const whole = await new Promise<string>((resolve, reject) =>
      app.render('page', locals, (err: Error | null, out?: string) => (err ? reject(err) : resolve(out ?? ''))),
    );
    app.get('/spliced', (_req, res) => renderSpliced(res, 'page', locals));
    const res = await request(app).get('/spliced').buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toBe(whole);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(whole));
    expect(textOf(find(res.text, { tag: 'header', class: 'card' })!)).toBe('مخبز 🥐');
    // A kept part printed outside renderSpliced is its HTML, as any RenderedHtml.
    expect(escapeOutput(locals.card)).toBe('<header class="card">مخبز 🥐</header>');
  });

  // Templates read their data as local variables, not through `with` (docs/performance.md#templates-without-with).
  it('when a template reads a value only a partial it includes prints, then the partial gets it', async () => {
    const file = template('<%- include("/partials/write-form", { f: form, cls: "", text: box }) %>');
    const form = { href: '/w', csrf: 'c', key: 'k1', do: 'reply', target: '1_2', text: 'Send' };
    const html = ejs.renderFile(file, { form, box: { label: 'Comment as Bakery', kept: 'Hi' } }, options(file));
    expect(textOf(find(await html, { tag: 'label' })!)).toBe('Comment as Bakery');
    expect(textOf(find(await html, { tag: 'textarea' })!)).toBe('Hi');
  });

  it('when a template declares a name with const and prints it, then it renders', () => {
    const file = template("<% const greeting = 'Hello, ' + name %><p><%= greeting %></p>");
    expect(ejs.render(fs.readFileSync(file, 'utf8'), { name: 'Ada' }, options(file))).toBe('<p>Hello, Ada</p>');
  });

  it('when a template declares a helper named as a value a partial it includes reads, then it is refused, naming the template and the helper', () => {
    // write-form reads `text`: a helper of that name would replace it there.
    const file = template('<% function text() {} %><%- include("/partials/write-form", { f: {}, cls: "" }) %>');
    expect(() => options(file)).toThrow(`${file}: its helper text() has the name of a value another template reads`);
  });
});

/** Folders of the templates below, removed after the tests. */
const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A template of the test's own, beside the app's views (its includes are theirs). */
function template(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagelight-view-'));
  made.push(dir);
  const file = path.join(dir, 'test.ejs');
  fs.writeFileSync(file, text);
  return file;
}

function options(file: string) {
  const app = express();
  useViews(app);
  return templateOptions(app, file);
}
