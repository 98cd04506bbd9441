"""UI strings (zh, en) of undo, the card browser, the exercise path and the review countdown."""

from __future__ import annotations

WORKFLOW_STRINGS: dict[str, tuple[str, str]] = {
    "bury_siblings": ("评分后同题的其他卡片明天再出现", "Siblings of a rated card wait until tomorrow"),
    "rescheduled": ("已按新的目标保持率重新安排", "Rescheduled for the new retention"),
    "fsrs_default": (
        "FSRS 参数：默认（quiz optimize 可按你的复习记录拟合）",
        "FSRS parameters: the defaults (quiz optimize fits them to your reviews)",
    ),
    "fsrs_fitted": (
        "FSRS 参数：按你的复习记录拟合（quiz optimize --reset 恢复默认）",
        "FSRS parameters: fitted to your reviews (quiz optimize --reset: the defaults)",
    ),
    "undone": ("已撤销", "Undone"),
    "nothing_to_undo": ("本次没有可撤销的操作", "Nothing to undo in this session"),
    "act_rate": ("评分", "rating"),
    "act_suspend": ("暂停", "suspend"),
    "act_unsuspend": ("取消暂停", "unsuspend"),
    "act_bury": ("跳过到明天", "bury"),
    "act_unbury": ("取消跳过", "unbury"),
    "act_forget": ("重置为新卡片", "forget"),
    "unsuspend": ("取消暂停", "Unsuspend"),
    "unbury": ("取消跳过", "Unbury"),
    "forget": ("重置为新卡片", "Forget"),
    "buried": ("已跳过到明天", "Buried until tomorrow"),
    "cards": ("卡片", "Cards"),
    "search": ("搜索", "Search"),
    "state": ("状态", "State"),
    "tag": ("标签", "Tag"),
    "next_due": ("下次到期", "Next due"),
    "history": ("复习记录", "History"),
    "no_history": ("还没有复习记录", "No reviews yet"),
    "suspended": ("已暂停", "suspended"),
    "come_back_in": ("学习中的卡片回来还有", "Learning cards come back in"),
    "cards_due_now": ("有卡片到期了", "Cards are due now"),
    "quiz_ratings_count": (
        "问答题的评分会记入复习计划（与复习相同，计入每日新卡片上限）",
        "Ratings of questions count: they schedule the question's card, as in review, and use today's new-card limit",
    ),
    "review_module": ("复习本模块", "Review module"),
    "next_exercise": ("下一个未完成的练习", "Next unfinished exercise"),
    "all_passed": ("全部练习都已通过！", "Every exercise passed!"),
    "difficulty": ("难度", "Difficulty"),
    "file_changed": ("文件在磁盘上被修改，已重新载入", "The file changed on disk and was reloaded"),
    "file_conflict": (
        "文件在磁盘上被修改，而编辑器中也有未保存的修改。载入磁盘上的版本？（否：保留编辑器中的版本）",
        "The file changed on disk and the editor has unsaved changes. Load the version on disk? (No: keep the editor's)",
    ),
    "editor_missing": ("无法启动编辑器", "Cannot start the editor"),
    "grader_starting": ("评分器正在启动…", "Starting the grader…"),
    "pick_exercise": ("选择一个练习", "Pick an exercise"),
}
