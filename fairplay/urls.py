from django.urls import path

from fairplay import views

urlpatterns = [
    path("fair-play/report/", views.report, name="fairplay-report"),
    path("fair-play/report/sent/", views.report_sent, name="fairplay-report-sent"),
    path(
        "fair-play/warnings/<int:warning_id>/read/",
        views.warning_read_view,
        name="fairplay-warning-read",
    ),
]
