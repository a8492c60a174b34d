//go:build e2e

package e2e

import (
	"encoding/json"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// The scenarios both browsers run (test/scenario), here in Chromium.

func TestAskAnswersFromThePage(t *testing.T)   { scenario.AskAnswersFromThePage(t, chrome{}) }
func TestAnswerHTMLIsShownAsText(t *testing.T) { scenario.AnswerHTMLIsShownAsText(t, chrome{}) }
func TestAskRefusesAnAction(t *testing.T)      { scenario.AskRefusesAnAction(t, chrome{}) }
func TestActFillsAndSubmitsAForm(t *testing.T) { scenario.ActFillsAndSubmitsAForm(t, chrome{}) }
func TestStaleRefIsRecovered(t *testing.T)     { scenario.StaleRefIsRecovered(t, chrome{}) }
func TestStopInTheMiddleOfARun(t *testing.T)   { scenario.StopInTheMiddleOfARun(t, chrome{}) }
func TestProviderErrorShown(t *testing.T)      { scenario.ProviderErrorShown(t, chrome{}) }
func TestInjection(t *testing.T)               { scenario.Injection(t, chrome{}) }
func TestApprovalBindsTheActionItShowed(t *testing.T) {
	scenario.ApprovalBindsTheActionItShowed(t, chrome{})
}
func TestScreenshotsAroundARun(t *testing.T) { scenario.ScreenshotsAroundARun(t, chrome{}) }
func TestBedrockConverseStream(t *testing.T) { scenario.BedrockConverseStream(t, chrome{}) }
func TestVisionDetectedFromOllamaShow(t *testing.T) {
	scenario.VisionDetectedFromOllamaShow(t, chrome{})
}

func TestFilesAreDownloadedReadAndUploaded(t *testing.T) {
	scenario.FilesAreDownloadedReadAndUploaded(t, chrome{})
}
func TestAskReadsThePDFTab(t *testing.T)  { scenario.AskReadsThePDFTab(t, chrome{}) }
func TestFramesAndShadowDOM(t *testing.T) { scenario.FramesAndShadowDOM(t, chrome{}, true) }
func TestDevModeInspectsAndPatches(t *testing.T) {
	scenario.DevModeInspectsAndPatches(t, chrome{}, true)
}

// chrome is the scenario.Driver of this suite.
type chrome struct{}

func (chrome) Open(t *testing.T, fixture string, srv *llmtest.Server, p scenario.Provider) scenario.Session {
	t.Helper()
	return openSession(t, fixture, srv, p)
}

func (chrome) OpenURL(t *testing.T, pageURL string, srv *llmtest.Server, p scenario.Provider) scenario.Session {
	t.Helper()
	return openSessionAt(t, pageURL, srv, p)
}

func (s *session) TabID() int { return s.tabID }

// DownloadDir implements scenario.DownloadDirer.
func (s *session) DownloadDir() string { return env.downloads }

func (s *session) Eval(target scenario.Target, expr string, out any) error {
	ctx := s.panel
	switch target {
	case scenario.Page:
		ctx = s.page
	case scenario.Extension:
		ctx = env.worker
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](expr, chromedp.EvalAwaitPromise))
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal(raw, out)
}

func (s *session) Send(mode, prompt string) {
	s.t.Helper()
	s.send(mode, prompt)
}

// Click is a trusted click, through the debugger's input events.
func (s *session) Click(css string) {
	s.t.Helper()
	if err := chromedp.Do(s.panel, chromedp.Click(chromedp.CSS(css))); err != nil {
		s.t.Fatalf("click %s in the panel: %v", css, err)
	}
}
func TestStrictPlanIsReviewedBeforeActing(t *testing.T) {
	scenario.StrictPlanIsReviewedBeforeActing(t, chrome{})
}
func TestAutoRoutesQuestionsToAskAndTasksToAct(t *testing.T) {
	scenario.AutoRoutesQuestionsToAskAndTasksToAct(t, chrome{})
}
func TestFalseSuccessIsNotReported(t *testing.T)   { scenario.FalseSuccessIsNotReported(t, chrome{}) }
func TestAlertReadAsSuccessCompletes(t *testing.T) { scenario.AlertReadAsSuccessCompletes(t, chrome{}) }
func TestStatusReadAsErrorIsNotSuccess(t *testing.T) {
	scenario.StatusReadAsErrorIsNotSuccess(t, chrome{})
}
func TestMemoryReachesTheModelAndLearnsFromTheUser(t *testing.T) {
	scenario.MemoryReachesTheModelAndLearnsFromTheUser(t, chrome{})
}
func TestHoverOpensMenus(t *testing.T) { scenario.HoverOpensMenus(t, chrome{}) }
func TestScriptClickTargetsAreClicked(t *testing.T) {
	scenario.ScriptClickTargetsAreClicked(t, chrome{})
}
func TestDragDropReordersAndDrops(t *testing.T)  { scenario.DragDropReordersAndDrops(t, chrome{}) }
func TestVerifyFormReadsValidation(t *testing.T) { scenario.VerifyFormReadsValidation(t, chrome{}) }
func TestResizeWindowReportsTheViewport(t *testing.T) {
	scenario.ResizeWindowReportsTheViewport(t, chrome{})
}
func TestNewTabOpensForTheUser(t *testing.T) { scenario.NewTabOpensForTheUser(t, chrome{}) }
func TestSolveCaptchaWithoutSolverAsksTheUser(t *testing.T) {
	scenario.SolveCaptchaWithoutSolverAsksTheUser(t, chrome{})
}
func TestWebMCPFollowsItsSetting(t *testing.T) { scenario.WebMCPFollowsItsSetting(t, chrome{}) }
func TestHistoryAndTraces(t *testing.T)        { scenario.HistoryAndTraces(t, chrome{}) }
func TestResearchURLReadsARenderedPage(t *testing.T) {
	scenario.ResearchURLReadsARenderedPage(t, chrome{})
}
func TestWatchChecksInABackgroundTab(t *testing.T) { scenario.WatchChecksInABackgroundTab(t, chrome{}) }
func TestUserSkillIsLoadedInTheNextRun(t *testing.T) {
	scenario.UserSkillIsLoadedInTheNextRun(t, chrome{})
}

func TestWorkflowSavedAndReplayed(t *testing.T) { scenario.WorkflowSavedAndReplayed(t, chrome{}) }
func TestWorkflowRepairedWhenThePageChanged(t *testing.T) {
	scenario.WorkflowRepairedWhenThePageChanged(t, chrome{})
}

func TestRecordingOfARun(t *testing.T) { scenario.RecordingOfARun(t, chrome{}) }

func TestForeignPublishButtonWaitsForTheCard(t *testing.T) {
	scenario.ForeignPublishButtonWaitsForTheCard(t, chrome{})
}
