from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

# The fixed pages come first; "<username>/" matches anything else (services.py reserves
# these names so that no profile is shadowed).
urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    # Django's LogoutView only accepts POST: the nav uses a small form.
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", views.PasswordChangeView.as_view(), name="password-change"),
    path("<str:username>/", views.profile, name="profile"),
]
