import { BoldOutlined, ItalicOutlined, OrderedListOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { Button, Flex, Tooltip, theme } from 'antd';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';
import { isEmptyComment } from '../commentText.ts';

export interface CommentEditorProps {
  /** HTML to start from (the comment being edited), '' for a new one. */
  initial: string;
  editing: boolean;
  saving: boolean;
  onSave: (html: string) => void;
  onCancel: () => void;
}

/**
 * The comment editor (tiptap, loaded with the case page only). Save reads 'Change' while
 * editing a comment and is disabled while the editor is empty or holds an empty paragraph.
 */
export default function CommentEditor({ initial, editing, saving, onSave, onCancel }: CommentEditorProps) {
  const { token } = theme.useToken();
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ heading: false, blockquote: false, codeBlock: false, horizontalRule: false, link: { openOnClick: false } }),
    ],
    content: initial,
    editorProps: { attributes: { 'aria-label': 'Comment', role: 'textbox', 'aria-multiline': 'true', class: 'vigil-comment-editor' } },
  });
  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.commands.setContent(initial);
  }, [editor, initial]);
  // Selectors also run while the editor is torn down (remount after save): read only a live one.
  const live = (e: typeof editor) => (e && !e.isDestroyed ? e : null);
  const html = useEditorState({ editor, selector: (s) => live(s.editor)?.getHTML() ?? '' }) ?? '';
  const empty = isEmptyComment(html);
  const marks = useEditorState({
    editor,
    selector: (s) => ({
      bold: live(s.editor)?.isActive('bold') ?? false,
      italic: live(s.editor)?.isActive('italic') ?? false,
      bulletList: live(s.editor)?.isActive('bulletList') ?? false,
      orderedList: live(s.editor)?.isActive('orderedList') ?? false,
    }),
  });
  const tools = [
    { key: 'bold', label: 'Bold', icon: <BoldOutlined />, run: () => editor?.chain().focus().toggleBold().run() },
    { key: 'italic', label: 'Italic', icon: <ItalicOutlined />, run: () => editor?.chain().focus().toggleItalic().run() },
    {
      key: 'bulletList',
      label: 'Bulleted list',
      icon: <UnorderedListOutlined />,
      run: () => editor?.chain().focus().toggleBulletList().run(),
    },
    {
      key: 'orderedList',
      label: 'Numbered list',
      icon: <OrderedListOutlined />,
      run: () => editor?.chain().focus().toggleOrderedList().run(),
    },
  ] as const;

  return (
    <div>
      <Flex gap={4} role="toolbar" aria-label="Formatting" style={{ marginBottom: 4 }}>
        {tools.map((t) => (
          <Tooltip key={t.key} title={t.label}>
            <Button
              size="small"
              type={marks?.[t.key] ? 'primary' : 'text'}
              icon={t.icon}
              aria-label={t.label}
              aria-pressed={marks?.[t.key] ?? false}
              onClick={t.run}
            />
          </Tooltip>
        ))}
      </Flex>
      <div
        style={{
          border: `1px solid ${token.colorBorder}`,
          borderRadius: token.borderRadius,
          padding: '4px 11px',
          minHeight: 96,
          background: token.colorBgContainer,
        }}
        onClick={() => editor?.commands.focus()}
      >
        <EditorContent editor={editor} />
      </div>
      <Flex gap={8} justify="flex-end" style={{ marginTop: 8 }}>
        <Button
          onClick={() => {
            editor?.commands.clearContent();
            onCancel();
          }}
        >
          Cancel
        </Button>
        <Button type="primary" disabled={empty || saving} loading={saving} onClick={() => editor && onSave(editor.getHTML())}>
          {editing ? 'Change' : 'Save'}
        </Button>
      </Flex>
    </div>
  );
}
