import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(cleanup);
import type { Comment } from '@vigil/contracts';
import { CommentList } from './components/CommentList.tsx';
import { initialsOf, isEmptyComment, sanitizeComment } from './commentText.ts';
import { STATUS_OPTIONS } from './pages/CaseDetailPage.tsx';

describe('empty comment detection (Save disabled)', () => {
  it.each(['', '<p></p>', '<p><br></p>', '<p> </p>', '<p>&nbsp;</p>', '<p></p><p></p>', '<p><br/></p>', null, undefined])(
    '%j is empty',
    (html) => {
      expect(isEmptyComment(html)).toBe(true);
    },
  );
  it.each(['<p>a</p>', '<p><strong>ok</strong></p>', '<ul><li><p>x</p></li></ul>', '<p>0</p>'])('%j is not empty', (html) => {
    expect(isEmptyComment(html)).toBe(false);
  });
});

describe('comment rendering', () => {
  it('takes initials from the first two words', () => {
    expect(initialsOf('Dana Whitfield')).toBe('DW');
    expect(initialsOf('  sam  ')).toBe('S');
    expect(initialsOf('Ann Marie van Dyke')).toBe('AM');
    expect(initialsOf('')).toBe('?');
  });
  it('sanitizes content again in the browser: no scripts, handlers or javascript: links', () => {
    const clean = sanitizeComment(
      '<p onclick="x()">Hi <a href="javascript:alert(1)">x</a><script>alert(1)</script><img src=x onerror=alert(1)><a href="https://ok.test">ok</a></p>',
    );
    expect(clean).not.toMatch(/script|onclick|onerror|javascript:|<img/i);
    expect(clean).toContain('href="https://ok.test"');
    expect(sanitizeComment('<p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s> <code>c</code></p>')).toBe(
      '<p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s> <code>c</code></p>',
    );
  });
});

describe('status picker', () => {
  it('offers 1..5 with the status labels (shown value is caseType + 1)', () => {
    expect(STATUS_OPTIONS).toEqual([
      { value: 1, label: 'New' },
      { value: 2, label: 'In Progress' },
      { value: 3, label: 'Awaiting Delivery' },
      { value: 4, label: 'Requires Testing' },
      { value: 5, label: 'Completed' },
    ]);
  });
});

describe('CommentList', () => {
  const comment = (id: number, userId: number, userName: string, content = '<p>text</p>'): Comment => ({
    id,
    userId,
    userName,
    content,
    caseId: 1,
    createdAt: '2026-11-22T06:00:00.000Z',
    updatedAt: '2026-11-22T06:00:00.000Z',
  });
  const list = [comment(1, 10, 'Dana Whitfield'), comment(2, 20, 'Pat Miles')];

  it('lets the author edit and delete, and nobody else (non-Admin)', () => {
    render(<CommentList comments={list} isLoading={false} userId={10} isAdmin={false} onEdit={() => {}} onDelete={() => {}} />);
    expect(screen.getAllByRole('button', { name: 'Edit comment' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Delete comment' })).toHaveLength(1);
    expect(screen.getByText('DW')).toBeTruthy();
  });
  it('lets an Admin delete any comment but edit only its own', () => {
    render(<CommentList comments={list} isLoading={false} userId={99} isAdmin onEdit={() => {}} onDelete={() => {}} />);
    expect(screen.queryAllByRole('button', { name: 'Edit comment' })).toHaveLength(0);
    expect(screen.getAllByRole('button', { name: 'Delete comment' })).toHaveLength(2);
  });
  it('asks before deleting with the product texts', async () => {
    const onDelete = vi.fn();
    render(<CommentList comments={[list[0]]} isLoading={false} userId={10} isAdmin={false} onEdit={() => {}} onDelete={onDelete} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete comment' }));
    expect(await screen.findByText('Are you sure you want to delete this comment? This action cannot be undone.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'No, Cancel' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Yes, Delete' }));
    expect(onDelete).toHaveBeenCalledWith(list[0]);
  });
  it('clamps long content with a more/less toggle', () => {
    const long = `<p>${'word '.repeat(80)}</p>`;
    render(
      <CommentList
        comments={[comment(3, 10, 'Dana Whitfield', long)]}
        isLoading={false}
        userId={10}
        isAdmin={false}
        onEdit={() => {}}
        onDelete={() => {}}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'more' }));
    expect(screen.getByRole('button', { name: 'less' })).toBeTruthy();
  });
});
