import { AlertTriangle, RefreshCw, RotateCcw, Trash2 } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';

interface Props {
  /** How the fallback names the template: its name when readable, else its id. */
  label: string;
  onDelete: () => void;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * One template's card that fails to render (a corrupted stored template) shows this fallback
 * instead of taking the whole list down (spec 002: Try Again, Delete Corrupted Template, Reload
 * Page). React has no hook for catching render errors, hence the class.
 */
export class TemplateCardBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`Template ${this.props.label} could not be displayed`, error, info.componentStack);
  }

  private handleTryAgain = () => this.setState({ error: null });

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Card role="alert" className="border-red-200 dark:border-red-500/30">
        <CardContent className="flex flex-col gap-3 p-5">
          <p className="flex items-center gap-2 font-medium text-red-700 dark:text-red-300">
            <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
            Template <span className="font-mono break-all">{this.props.label}</span> could not be displayed.
          </p>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Its stored data may be damaged. Try again, delete it, or reload the page.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={this.handleTryAgain}>
              <RotateCcw aria-hidden="true" />
              Try Again
            </Button>
            <Button variant="destructive" size="sm" onClick={this.props.onDelete}>
              <Trash2 aria-hidden="true" />
              Delete Corrupted Template
            </Button>
            <Button variant="ghost" size="sm" onClick={() => window.location.reload()}>
              <RefreshCw aria-hidden="true" />
              Reload Page
            </Button>
          </div>
        </CardContent>
      </Card>
    );
  }
}
