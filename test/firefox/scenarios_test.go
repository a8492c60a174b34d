//go:build firefox

package firefox

import (
	"testing"

	"github.com/webbrain/webbrain/test/scenario"
	"github.com/webbrain/webbrain/wasm/llm/llmtest"
)

// The scenarios both browsers run (test/scenario), here in Firefox.

func TestAskAnswersFromThePage(t *testing.T)   { scenario.AskAnswersFromThePage(t, firefoxDriver{}) }
func TestAnswerHTMLIsShownAsText(t *testing.T) { scenario.AnswerHTMLIsShownAsText(t, firefoxDriver{}) }
func TestAskRefusesAnAction(t *testing.T)      { scenario.AskRefusesAnAction(t, firefoxDriver{}) }
func TestActFillsAndSubmitsAForm(t *testing.T) { scenario.ActFillsAndSubmitsAForm(t, firefoxDriver{}) }
func TestStaleRefIsRecovered(t *testing.T)     { scenario.StaleRefIsRecovered(t, firefoxDriver{}) }
func TestStopInTheMiddleOfARun(t *testing.T)   { scenario.StopInTheMiddleOfARun(t, firefoxDriver{}) }
func TestProviderErrorShown(t *testing.T)      { scenario.ProviderErrorShown(t, firefoxDriver{}) }
func TestInjection(t *testing.T)               { scenario.Injection(t, firefoxDriver{}) }
func TestApprovalBindsTheActionItShowed(t *testing.T) {
	scenario.ApprovalBindsTheActionItShowed(t, firefoxDriver{})
}
func TestScreenshotsAroundARun(t *testing.T) { scenario.ScreenshotsAroundARun(t, firefoxDriver{}) }
func TestBedrockConverseStream(t *testing.T) { scenario.BedrockConverseStream(t, firefoxDriver{}) }
func TestVisionDetectedFromOllamaShow(t *testing.T) {
	scenario.VisionDetectedFromOllamaShow(t, firefoxDriver{})
}

func TestFilesAreDownloadedReadAndUploaded(t *testing.T) {
	scenario.FilesAreDownloadedReadAndUploaded(t, firefoxDriver{})
}
func TestAskReadsThePDFTab(t *testing.T)  { scenario.AskReadsThePDFTab(t, firefoxDriver{}) }
func TestFramesAndShadowDOM(t *testing.T) { scenario.FramesAndShadowDOM(t, firefoxDriver{}, false) }
func TestDevModeInspectsAndPatches(t *testing.T) {
	scenario.DevModeInspectsAndPatches(t, firefoxDriver{}, false)
}

// firefoxDriver is the scenario.Driver of this suite: the panel opens as a
// tab of sidepanel.html bound to the fixture tab.
type firefoxDriver struct{}

func (firefoxDriver) Open(t *testing.T, fixture string, srv *llmtest.Server, p scenario.Provider) scenario.Session {
	t.Helper()
	s := openSession(t, fixture, srv)
	if p != scenario.OpenAIChat {
		scenario.SaveSettings(t, s, srv, p)
	}
	return s
}

func (firefoxDriver) OpenURL(t *testing.T, pageURL string, srv *llmtest.Server, p scenario.Provider) scenario.Session {
	t.Helper()
	s := openSessionAt(t, pageURL, srv)
	if p != scenario.OpenAIChat {
		scenario.SaveSettings(t, s, srv, p)
	}
	return s
}
func TestStrictPlanIsReviewedBeforeActing(t *testing.T) {
	scenario.StrictPlanIsReviewedBeforeActing(t, firefoxDriver{})
}
func TestAutoRoutesQuestionsToAskAndTasksToAct(t *testing.T) {
	scenario.AutoRoutesQuestionsToAskAndTasksToAct(t, firefoxDriver{})
}
func TestFalseSuccessIsNotReported(t *testing.T) {
	scenario.FalseSuccessIsNotReported(t, firefoxDriver{})
}
func TestAlertReadAsSuccessCompletes(t *testing.T) {
	scenario.AlertReadAsSuccessCompletes(t, firefoxDriver{})
}
func TestStatusReadAsErrorIsNotSuccess(t *testing.T) {
	scenario.StatusReadAsErrorIsNotSuccess(t, firefoxDriver{})
}

func TestMemoryReachesTheModelAndLearnsFromTheUser(t *testing.T) {
	scenario.MemoryReachesTheModelAndLearnsFromTheUser(t, firefoxDriver{})
}
func TestHoverOpensMenus(t *testing.T) { scenario.HoverOpensMenus(t, firefoxDriver{}) }
func TestScriptClickTargetsAreClicked(t *testing.T) {
	scenario.ScriptClickTargetsAreClicked(t, firefoxDriver{})
}
func TestDragDropReordersAndDrops(t *testing.T) {
	scenario.DragDropReordersAndDrops(t, firefoxDriver{})
}
func TestVerifyFormReadsValidation(t *testing.T) {
	scenario.VerifyFormReadsValidation(t, firefoxDriver{})
}
func TestResizeWindowReportsTheViewport(t *testing.T) {
	scenario.ResizeWindowReportsTheViewport(t, firefoxDriver{})
}
func TestNewTabOpensForTheUser(t *testing.T) { scenario.NewTabOpensForTheUser(t, firefoxDriver{}) }
func TestSolveCaptchaWithoutSolverAsksTheUser(t *testing.T) {
	scenario.SolveCaptchaWithoutSolverAsksTheUser(t, firefoxDriver{})
}
func TestWebMCPFollowsItsSetting(t *testing.T) { scenario.WebMCPFollowsItsSetting(t, firefoxDriver{}) }
func TestHistoryAndTraces(t *testing.T)        { scenario.HistoryAndTraces(t, firefoxDriver{}) }

func TestResearchURLReadsARenderedPage(t *testing.T) {
	scenario.ResearchURLReadsARenderedPage(t, firefoxDriver{})
}

func TestWatchChecksInABackgroundTab(t *testing.T) {
	scenario.WatchChecksInABackgroundTab(t, firefoxDriver{})
}

func TestUserSkillIsLoadedInTheNextRun(t *testing.T) {
	scenario.UserSkillIsLoadedInTheNextRun(t, firefoxDriver{})
}

func TestWorkflowSavedAndReplayed(t *testing.T) {
	scenario.WorkflowSavedAndReplayed(t, firefoxDriver{})
}

func TestWorkflowRepairedWhenThePageChanged(t *testing.T) {
	scenario.WorkflowRepairedWhenThePageChanged(t, firefoxDriver{})
}

func TestRecordingNeedsChrome(t *testing.T) { scenario.RecordingNeedsChrome(t, firefoxDriver{}) }

func TestMailChipsKeepTheirRowAgainstThePage(t *testing.T) {
	scenario.MailChipsKeepTheirRowAgainstThePage(t, firefoxDriver{})
}

func TestForeignPublishButtonWaitsForTheCard(t *testing.T) {
	scenario.ForeignPublishButtonWaitsForTheCard(t, firefoxDriver{})
}
