import { ExportOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useCommandPortalUrl } from '../../../lib/api/clientConfigApi.ts';

/** Access Command (docs/web-pages.md "Pages"): the deployment's external command portal, in a new tab. */
export function AccessCommandButton() {
  const url = useCommandPortalUrl();
  return (
    <Button icon={<ExportOutlined />} href={url} target="_blank" rel="noopener noreferrer">
      Access Command
    </Button>
  );
}
