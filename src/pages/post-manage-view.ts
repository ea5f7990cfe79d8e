import type { Request } from 'express';
import type { AppContext } from '../context';
import type { PostDetails } from '../graph/schemas';
import type { Locale } from '../i18n/locale';
import type { PageAccess } from '../session/access';
import { csrfToken } from '../session/csrf';
import { newFormKey } from '../writes/keys';
import type { WriteFormView } from './post-page-view';
import { publishing } from './scheduled';
import { publishingWhy } from './scheduled-view';

/**
 * What the post page offers for the post itself (docs/architecture.md#post-management): **Edit** its text and
 * **Delete** it, each a form of the one write path (./post-actions.ts), on the Page's own posts only (`from` is the
 * Page: the Pages API Posts guide updates and deletes the Page's posts; no field says which posts may be edited, so
 * a visitor's post on the Page offers nothing), for a person who may publish; one line and Ask again when the
 * permission was not granted; nothing when the app does not ask for it or the role has no task to publish.
 */
export interface PostManageView {
  /** "Actions for this post": the group's name for screen readers. */
  label: string;
  edit?: WriteFormView & { summary: string; textbox: { label: string; kept: string } };
  remove?: WriteFormView & { summary: string; confirm: string };
  why?: { text: string; askAgain?: string };
}

export function postManagement(
  ctx: AppContext,
  req: Request,
  access: PageAccess,
  post: PostDetails,
  locale: Locale,
): PostManageView | undefined {
  const { pageId } = access;
  if (post.from?.id !== pageId) return undefined;
  const self = `/pages/${pageId}/posts/${post.id}`;
  const allowed = publishing(ctx, access);
  const label = locale.t('manage.actionsFor');
  if (allowed !== 'may') {
    const why = allowed === 'not-granted' ? publishingWhy(allowed, locale, self) : undefined;
    return why ? { label, why } : undefined;
  }
  const form = (what: string, text: string): WriteFormView => ({
    href: `${self}/write`,
    csrf: csrfToken(req),
    key: newFormKey(),
    do: what,
    target: post.id,
    text,
  });
  return {
    label,
    edit: {
      ...form('edit', locale.t('manage.save')),
      summary: locale.t('manage.edit'),
      textbox: { label: locale.t('manage.textLabel'), kept: post.message ?? '' },
    },
    remove: {
      ...form('delete-post', locale.t('manage.deleteYes')),
      summary: locale.t('manage.delete'),
      confirm: locale.t('manage.deleteConfirm'),
    },
  };
}
